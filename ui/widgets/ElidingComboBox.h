// A combo box whose closed face shortens a long entry in the middle ("renamed-r…alpaca-seed)"), keeping the
// start and the end of a run's label, where QComboBox cut it at the right; its list shows every entry
// whole, and the tooltip names the whole entry chosen. An entry may have a short form (ShortTextRole: the
// config key of "learning_rate — Learning rate"), shown where the whole one does not fit.
#pragma once
#include <QComboBox>

class ElidingComboBox : public QComboBox {
    Q_OBJECT
public:
    static constexpr int ShortTextRole = Qt::UserRole + 1;
    explicit ElidingComboBox(QWidget* parent = nullptr);
    /// The chosen entry as the closed box shows it: whole, or shortened in the middle to its room.
    QString shownText() const;
    /// The tooltip shown above the chosen entry's whole text (set instead of setToolTip).
    void setHelp(const QString& help);

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    void updateToolTip();
    QString m_help;
};
