// The sweep's axes, built from the config form's fields: one row per axis, a config key picked from a
// list of every key and its values typed as `twb sweep --axis` takes them ("1,4,8,16",
// "1e-4..1e-1 log 4", "0..0.3 lin 4"). It edits text and parses it with the engine; nothing else.
#pragma once
#include "twb/experiments.h"

#include <QWidget>

class QTableWidget;

class AxesEditor : public QWidget {
    Q_OBJECT
public:
    explicit AxesEditor(QWidget* parent = nullptr);
    /// Adds a row (key empty = the first of learning_rate, n_layer, n_head, n_embd, dropout, seed that no
    /// row sweeps yet).
    void addAxis(const QString& key = QString(), const QString& values = QString());
    void removeAxis(int row);
    void clear();
    int count() const;
    /// The axes as the engine parses them; throws twb::ConfigError naming a bad row.
    std::vector<twb::SweepAxis> axes() const;
    /// The rows as "key=values" texts (what QSettings keeps).
    QStringList texts() const;
    void setTexts(const QStringList& texts);

signals:
    void changed();

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    /// The field column as wide as its chosen "key — Label" needs, as long as the values keep room for a
    /// range and half the table.
    void fitKeyColumn();
    /// Tab from a row's field or values: the next of them in reading order, then Add axis (Backtab: back,
    /// then what comes before the table). The table's own handling sent Tab between a row's two widgets
    /// for ever.
    void tabFrom(QWidget* from, bool forward);
    QTableWidget* m_table = nullptr;
    QWidget* m_add = nullptr;
};
