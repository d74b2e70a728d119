// What every panel has in common: the busy flag, the error line (an ErrorLabel the panel places in its
// layout) and the statusMessage signal the main window shows. A panel says what "busy" means for its
// controls in busyChanged(); it does not keep its own copies of the flag or the error. Its background work
// goes through jobs(): the main window's JobsService, or the panel's own when it was made without one.
#pragma once
#include <QWidget>

class ErrorLabel;
class JobsService;

class PanelBase : public QWidget {
    Q_OBJECT
public:
    bool isBusy() const { return m_busy; }
    /// The error shown, empty when none.
    QString lastError() const;
    /// Where the panel runs its background work.
    JobsService* jobs() const;

signals:
    void statusMessage(const QString& text);
    /// The error `text` was cleared (the problem is gone): the status bar drops it if it still shows it.
    void statusWithdrawn(const QString& text);

protected:
    /// jobs: the service to run background work on; nullptr makes the panel its own.
    explicit PanelBase(JobsService* jobs = nullptr, QWidget* parent = nullptr);
    /// The panel's error line (an ErrorLabel), to put into its layout; hidden while there is no error.
    QWidget* errorLabel() const;
    /// Shows an error (and repeats it in the status bar); an empty text clears it.
    void showError(const QString& text);
    /// The same line, without the status bar: for what the panel says of its own state when it is set up
    /// (a run that cannot chat), which must not turn up over another panel.
    void showErrorHere(const QString& text);
    void clearError() { showError({}); }
    void setBusy(bool busy);
    /// Called by setBusy: enable or disable the panel's controls.
    virtual void busyChanged(bool busy) { Q_UNUSED(busy); }
    /// Before it is first shown, the panel's text fields and tables let Tab move on (TabWalk).
    bool event(QEvent* e) override;

private:
    ErrorLabel* m_error;
    mutable JobsService* m_jobs;  // made on first use when the panel was given none
    bool m_busy = false;
};
