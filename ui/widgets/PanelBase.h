// What every panel has in common: the busy flag, the error line (an ErrorLabel the panel places in its
// layout) and the statusMessage signal the main window shows. A panel says what "busy" means for its
// controls in busyChanged(); it does not keep its own copies of the flag or the error.
#pragma once
#include <QWidget>

class ErrorLabel;

class PanelBase : public QWidget {
    Q_OBJECT
public:
    bool isBusy() const { return m_busy; }
    /// The error shown, empty when none.
    QString lastError() const;

signals:
    void statusMessage(const QString& text);

protected:
    explicit PanelBase(QWidget* parent = nullptr);
    /// The panel's error line (an ErrorLabel), to put into its layout; hidden while there is no error.
    QWidget* errorLabel() const;
    /// Shows an error (and repeats it in the status bar); an empty text clears it.
    void showError(const QString& text);
    void clearError() { showError({}); }
    void setBusy(bool busy);
    /// Called by setBusy: enable or disable the panel's controls.
    virtual void busyChanged(bool busy) { Q_UNUSED(busy); }

private:
    ErrorLabel* m_error;
    bool m_busy = false;
};
