#include "ui/widgets/RunsTableModel.h"

#include <QDateTime>
#include <QFileInfo>
#include <QFont>
#include <QLocale>
#include <QMetaEnum>
#include <cmath>
#include <limits>

namespace {
QString configValue(const twb::RunSummary& r, const std::string& key) {
    const auto it = r.config.find(key);
    return it == r.config.end() ? QString() : QString::fromStdString(it->second);
}

/// A missing figure sorts after every real one in ascending order.
QVariant number(double v) {
    return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
}

QString statusText(const std::string& s) {
    if (s == "empty")
        return QObject::tr("no checkpoint");
    if (s == "finished")
        return QObject::tr("finished");
    if (s == "stopped")  // before its last step: a Stop, a crash or a closed window; Start continues it
        return QObject::tr("stopped");
    if (s == "running")
        return QObject::tr("running");
    if (s == "damaged")  // its config.json (or another file a summary needs) cannot be read: why is its tooltip
        return QObject::tr("damaged");
    if (s == "imported")  // a model imported at step 0, with no dataset of its own: finetune it to train it
        return QObject::tr("imported");
    return QString::fromStdString(s);
}
}  // namespace

RunsTableModel::RunsTableModel(QObject* parent) : QAbstractTableModel(parent) {
    rebuildColumns();
}

void RunsTableModel::rebuildColumns() {
    m_columns.clear();
    const auto extras = [this] {
        for (int i = 0; i < m_extra.size(); ++i)
            m_columns.emplace_back(Extra, i);
    };
    if (m_layout == Layout::Runs) {
        // The status beside the steps ("1,800 of 3,000 · running"): last, it was scrolled out of sight at
        // 1280x720 with 150% text.
        for (Column c : {Name, Dataset, Model, Parameters, Steps, Status, BestValLoss, BitsPerChar, BestBleu, Created})
            m_columns.emplace_back(c, -1);
        extras();
    } else {
        m_columns.emplace_back(Name, -1);
        extras();
        for (Column c : {Parameters, FinalValLoss, BestValLoss, Accuracy, Perplexity, BitsPerChar, BestBleu,
                         TokensPerSecond, WallTime, Status})
            m_columns.emplace_back(c, -1);
    }
}

void RunsTableModel::setLayout(Layout layout) {
    beginResetModel();
    m_layout = layout;
    rebuildColumns();
    endResetModel();
}

int RunsTableModel::columnOf(Column c) const {
    for (size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].first == c)
            return static_cast<int>(i);
    return -1;
}

QString RunsTableModel::columnId(int col) const {
    int extra = -1;
    const Column c = columnAt(col, &extra);
    if (c == Extra)
        return extra >= 0 && extra < m_extra.size() ? "key:" + m_extra[extra] : QString();
    return QString::fromLatin1(QMetaEnum::fromType<Column>().valueToKey(c));
}

int RunsTableModel::columnOfId(const QString& id) const {
    for (int c = 0; c < columnCount(); ++c)
        if (columnId(c) == id)
            return c;
    return -1;
}

RunsTableModel::Column RunsTableModel::columnAt(int col, int* extra) const {
    const auto& c = m_columns.at(static_cast<size_t>(col));
    if (extra)
        *extra = c.second;
    return c.first;
}

void RunsTableModel::setRuns(std::vector<twb::RunSummary> runs) {
    // Rows out and in, not a model reset: a reset would also reset the header's column widths.
    if (!m_runs.empty()) {
        beginRemoveRows({}, 0, rowCount() - 1);
        m_runs.clear();
        endRemoveRows();
    }
    if (!runs.empty()) {
        beginInsertRows({}, 0, static_cast<int>(runs.size()) - 1);
        m_runs = std::move(runs);
        endInsertRows();
    }
}

void RunsTableModel::setExtraColumns(const QStringList& configKeys) {
    beginResetModel();
    m_extra = configKeys;
    rebuildColumns();
    endResetModel();
}

int RunsTableModel::rowOf(const QString& dir) const {
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (QString::fromStdString(m_runs[i].dir) == dir)
            return static_cast<int>(i);
    return -1;
}

void RunsTableModel::setDetails(const QString& dir, const QString& name, const QString& notes) {
    const int row = rowOf(dir);
    if (row < 0)
        return;
    auto& r = m_runs[static_cast<size_t>(row)];
    r.display_name = name.isEmpty() ? r.name : name.toStdString();
    r.notes = notes.toStdString();
    emit dataChanged(index(row, 0), index(row, columnCount() - 1));
}

void RunsTableModel::setPausedRun(const QString& dir) {
    const QString before = m_pausedRun;
    m_pausedRun = dir;
    const int status = columnOf(Status);
    for (const QString& d : {before, dir})
        if (const int row = rowOf(d); row >= 0 && status >= 0)
            emit dataChanged(index(row, status), index(row, status));
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QString RunsTableModel::modelShape(const twb::RunSummary& r) {
    // An encoder-decoder shows its encoder's and decoder's blocks (0 = n_layer), as its preset's name does.
    QString layers = configValue(r, "n_layer");
    if (configValue(r, "model_kind") == "encoder_decoder") {
        const auto side = [&](const char* key) {
            const QString v = configValue(r, key);
            return v.isEmpty() || v == "0" ? layers : v;
        };
        layers = side("n_encoder_layer") + "+" + side("n_decoder_layer");
    }
    const QString heads = configValue(r, "n_head"), width = configValue(r, "n_embd");
    if (layers.isEmpty() && heads.isEmpty() && width.isEmpty())
        return {};  // a damaged run's config could not be read: nothing, not "××"
    return QStringLiteral("%1×%2×%3").arg(layers, heads, width);
}

QString RunsTableModel::parameterText(int64_t n) {
    if (n <= 0)
        return QStringLiteral("-");
    if (n < 10000)
        return QString::number(n);
    if (n < 1000000)
        return QStringLiteral("%L1 k").arg(static_cast<double>(n) / 1e3, 0, 'f', n < 100000 ? 1 : 0);
    return QStringLiteral("%L1 M").arg(static_cast<double>(n) / 1e6, 0, 'f', n < 100000000 ? 2 : 0);
}

QVariant RunsTableModel::displayText(const twb::RunSummary& r, Column c, int extra) const {
    auto fixed = [](double v, int decimals) {
        return std::isnan(v) ? QStringLiteral("-") : QLocale().toString(v, 'f', decimals);  // "2,4398" in Bokmål
    };
    switch (c) {
        case Name:
            // A cell's swept values have columns of their own: its number is enough (the tooltip has the name).
            // A cell that has not finished says so beside its number: its losses are a stopped run's, and
            // the Status column is far to the right.
            if (m_layout == Layout::SweepResults) {
                const QString name = (r.display_name.empty() || r.display_name == r.name) && !cellNumber(r).isEmpty()
                                         ? cellNumber(r)
                                         : QString::fromStdString(r.display_name.empty() ? r.name : r.display_name);
                return r.status.empty() || r.status == "finished" ? name
                                                                  : tr("%1 (%2)").arg(name, statusText(r.status));
            }
            return QString::fromStdString(r.display_name.empty() ? r.name : r.display_name);
        case Dataset:
            return QFileInfo(configValue(r, "data_dir")).fileName();
        case Model:
            return modelShape(r);
        case Parameters:
            return parameterText(r.parameters);
        case Steps: {
            const qint64 maxIters = configValue(r, "max_iters").toLongLong();
            return maxIters > 0 && r.steps < maxIters ? tr("%1 of %2").arg(r.steps).arg(maxIters)
                                                      : QString::number(r.steps);
        }
        case BestValLoss:
            return fixed(r.best_val_loss, 4);
        case FinalValLoss:
            return fixed(r.final_val_loss, 4);
        case Accuracy:
            return fixed(r.accuracy * 100.0, 1);
        case Perplexity:
            return fixed(r.perplexity, 2);
        case BitsPerChar:
            return fixed(bitsPerChar(r), 3);
        case BestBleu:
            return fixed(r.best_bleu, 2);
        case TokensPerSecond:
            return fixed(r.tokens_per_s, 0);
        case WallTime:
            return fixed(r.wall_s, 1);
        case Created: {
            const QDateTime created = QDateTime::fromString(QString::fromStdString(r.created), Qt::ISODate);
            return created.isValid() ? created.toLocalTime().toString("yyyy-MM-dd hh:mm") : QString();
        }
        case Status:
            if (r.status == "running" && !m_pausedRun.isEmpty() && QString::fromStdString(r.dir) == m_pausedRun)
                return tr("paused");
            return statusText(r.status);
        case Extra:
            return configValue(r, m_extra.value(extra).toStdString());
    }
    return {};
}

QString RunsTableModel::cellNumber(const twb::RunSummary& r) {
    const QString name = QString::fromStdString(r.name);
    const int end = name.indexOf('_');
    if (end < 3)
        return {};
    for (int i = 0; i < end; ++i)
        if (!name[i].isDigit())
            return {};
    return name.left(end);
}

QString RunsTableModel::cellLabel(const twb::RunSummary& r, const QStringList& swept) {
    const QString number = cellNumber(r);
    if (number.isEmpty() || swept.isEmpty())
        return QString::fromStdString(r.name);
    QStringList values;
    for (const auto& key : swept)
        values << configValue(r, key.toStdString());
    return number + ": " + values.join(", ");
}

QVariant RunsTableModel::sortKey(const twb::RunSummary& r, Column c, int extra) const {
    switch (c) {
        case Name:
            return displayText(r, c, extra).toString().toLower();
        case Parameters:
        case Model:
            return static_cast<qlonglong>(r.parameters);
        case Steps:
            return static_cast<qlonglong>(r.steps);
        case BestValLoss:
            return number(r.best_val_loss);
        case FinalValLoss:
            return number(r.final_val_loss);
        case Accuracy:
            return number(r.accuracy);
        case Perplexity:
            return number(r.perplexity);
        case BitsPerChar:
            return number(bitsPerChar(r));
        case BestBleu:
            return number(r.best_bleu);
        case TokensPerSecond:
            return number(r.tokens_per_s);
        case WallTime:
            return number(r.wall_s);
        case Created:
            return QString::fromStdString(r.created);
        default: {
            const QString text = displayText(r, c, extra).toString();
            bool ok = false;
            const double v = text.toDouble(&ok);
            return ok ? QVariant(v) : QVariant(text.toLower());
        }
    }
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& r = m_runs[static_cast<size_t>(index.row())];
    int extra = -1;
    const Column col = columnAt(index.column(), &extra);
    if (role == DirRole)
        return QString::fromStdString(r.dir);
    if (role == SearchRole)
        return QStringList{QString::fromStdString(r.display_name), QString::fromStdString(r.name),
                           displayText(r, Dataset, -1).toString(), QString::fromStdString(r.notes),
                           displayText(r, Status, -1).toString()}
            .join('\n');
    if (role == Qt::DisplayRole)
        return displayText(r, col, extra);
    if (role == SortRole)
        return sortKey(r, col, extra);
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1\n%2").arg(QString::fromStdString(r.display_name.empty() ? r.name : r.display_name),
                                       QString::fromStdString(r.dir));
        if (!r.notes.empty())
            tip += "\n\n" + QString::fromStdString(r.notes);
        if (col == BitsPerChar)
            tip = m_layout == Layout::Runs
                      ? tr("Bits per character at the best evaluation (beside the best val loss): the loss in "
                           "units that compare character and BPE runs fairly.")
                      : tr("Bits per character at the last evaluation: the loss in units that compare character "
                           "and BPE runs fairly.");
        if (soFar(r, col))
            tip =
                tr("So far: the last evaluation of a run that has not finished (a running cell's first one is "
                   "at step 0)");
        if (col == Status && r.status == "running")
            tip = tr("A trainer is writing this run now.");
        if (col == Status && r.status == "stopped")
            tip =
                tr("Stopped before its last step (a Stop, a crash or a closed window): open it and press Start "
                   "(F5) to continue it.");
        return tip;
    }
    if (role == Qt::TextAlignmentRole && col != Name && col != Dataset && col != Model && col != Created &&
        col != Status && col != Extra)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && col == Status && r.status == "running") {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::FontRole && soFar(r, col)) {  // read as a result ("Final val loss 6.24" at step 0)
        QFont f;
        f.setItalic(true);
        return f;
    }
    return {};
}

bool RunsTableModel::soFar(const twb::RunSummary& r, Column col) const {
    return r.status != "finished" && (col == FinalValLoss || col == Accuracy || col == Perplexity ||
                                      (col == BitsPerChar && m_layout != Layout::Runs));
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    int extra = -1;
    const Column c = columnAt(section, &extra);
    static const char* names[] = {QT_TR_NOOP("Name"),       QT_TR_NOOP("Dataset"),        QT_TR_NOOP("Model"),
                                  QT_TR_NOOP("Parameters"), QT_TR_NOOP("Steps"),          QT_TR_NOOP("Best val loss"),
                                  QT_TR_NOOP("Bits/char"),  QT_TR_NOOP("Best BLEU"),      QT_TR_NOOP("Created"),
                                  QT_TR_NOOP("Status"),     QT_TR_NOOP("Final val loss"), QT_TR_NOOP("Accuracy %"),
                                  QT_TR_NOOP("Perplexity"), QT_TR_NOOP("Tokens/s"),       QT_TR_NOOP("Time (s)")};
    if (role == Qt::DisplayRole) {
        if (c == Extra)
            return m_extra.value(extra);
        if (c == Name && m_layout == Layout::SweepResults)
            return tr("Cell");
        return tr(names[c]);
    }
    if (role == Qt::ToolTipRole && c == Model)
        return tr("layers × heads × embedding width");
    if (role == Qt::ToolTipRole && (c == BestValLoss || c == FinalValLoss))
        return tr("Validation loss, in nats per token (lower is better)");
    if (role == Qt::ToolTipRole && c == BestBleu)
        return tr(
            "A translation run's highest validation BLEU after step 0 (higher is better); with best_by=bleu "
            "its best checkpoint");
    if (role == Qt::ToolTipRole && c == Perplexity)
        return tr("Validation perplexity at the last evaluation");
    return {};
}
