#include "ui/widgets/RunsTableModel.h"

#include <QDateTime>
#include <QFileInfo>
#include <QFont>
#include <QLocale>
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
    return QString::fromStdString(s);
}
}  // namespace

RunsTableModel::RunsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

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
    endResetModel();
}

int RunsTableModel::rowOf(const QString& dir) const {
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (QString::fromStdString(m_runs[i].dir) == dir)
            return static_cast<int>(i);
    return -1;
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstExtra + static_cast<int>(m_extra.size());
}

QString RunsTableModel::modelShape(const twb::RunSummary& r) {
    return QStringLiteral("%1×%2×%3")
        .arg(configValue(r, "n_layer"), configValue(r, "n_head"), configValue(r, "n_embd"));
}

QString RunsTableModel::parameterText(int64_t n) {
    if (n <= 0)
        return QStringLiteral("-");
    if (n < 10000)
        return QString::number(n);
    if (n < 1000000)
        return QStringLiteral("%1 k").arg(static_cast<double>(n) / 1e3, 0, 'f', n < 100000 ? 1 : 0);
    return QStringLiteral("%1 M").arg(static_cast<double>(n) / 1e6, 0, 'f', n < 100000000 ? 2 : 0);
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& r = m_runs[static_cast<size_t>(index.row())];
    const int col = index.column();
    if (role == DirRole)
        return QString::fromStdString(r.dir);
    const QString dataset = QFileInfo(configValue(r, "data_dir")).fileName();
    const qint64 maxIters = configValue(r, "max_iters").toLongLong();
    const QDateTime created = QDateTime::fromString(QString::fromStdString(r.created), Qt::ISODate);
    auto fixed = [](double v, int decimals) {
        return std::isnan(v) ? QStringLiteral("-") : QString::number(v, 'f', decimals);
    };
    if (role == Qt::DisplayRole) {
        switch (col) {
            case Name:
                return QString::fromStdString(r.display_name.empty() ? r.name : r.display_name);
            case Dataset:
                return dataset;
            case Model:
                return modelShape(r);
            case Parameters:
                return parameterText(r.parameters);
            case Steps:
                return maxIters > 0 && r.steps < maxIters ? tr("%1 of %2").arg(r.steps).arg(maxIters)
                                                          : QString::number(r.steps);
            case BestValLoss:
                return fixed(r.best_val_loss, 4);
            case BitsPerChar:
                return fixed(r.bits_per_char, 3);
            case Created:
                return created.isValid() ? created.toLocalTime().toString("yyyy-MM-dd hh:mm") : QString();
            case Status:
                return statusText(r.status);
            default:
                return configValue(r, m_extra.value(col - FirstExtra).toStdString());
        }
    }
    if (role == SortRole) {
        switch (col) {
            case Name:
                return QString::fromStdString(r.display_name).toLower();
            case Parameters:
                return static_cast<qlonglong>(r.parameters);
            case Steps:
                return static_cast<qlonglong>(r.steps);
            case BestValLoss:
                return number(r.best_val_loss);
            case BitsPerChar:
                return number(r.bits_per_char);
            case Created:
                return QString::fromStdString(r.created);
            case Model:
                return static_cast<qlonglong>(r.parameters);
            default: {
                const QString text = data(index, Qt::DisplayRole).toString();
                bool ok = false;
                const double v = text.toDouble(&ok);
                return ok ? QVariant(v) : QVariant(text.toLower());
            }
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1\n%2").arg(QString::fromStdString(r.display_name), QString::fromStdString(r.dir));
        if (!r.notes.empty())
            tip += "\n\n" + QString::fromStdString(r.notes);
        if (col == BitsPerChar)
            tip =
                tr("Bits per character at the last evaluation: the loss in units that compare character and "
                   "BPE runs fairly.");
        if (col == Status && r.status == "running")
            tip = tr("A trainer is writing this run now.");
        return tip;
    }
    if (role == Qt::TextAlignmentRole && col >= Parameters && col <= BitsPerChar)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && col == Status && r.status == "running") {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal)
        return {};
    static const char* names[] = {QT_TR_NOOP("Name"),       QT_TR_NOOP("Dataset"), QT_TR_NOOP("Model"),
                                  QT_TR_NOOP("Parameters"), QT_TR_NOOP("Steps"),   QT_TR_NOOP("Best val loss"),
                                  QT_TR_NOOP("Bits/char"),  QT_TR_NOOP("Created"), QT_TR_NOOP("Status")};
    if (role == Qt::DisplayRole)
        return section < FirstExtra ? tr(names[section]) : m_extra.value(section - FirstExtra);
    if (role == Qt::ToolTipRole && section == Model)
        return tr("layers × heads × embedding width");
    if (role == Qt::ToolTipRole && section == BestValLoss)
        return tr("Lowest validation loss, in nats per token (lower is better)");
    return {};
}
