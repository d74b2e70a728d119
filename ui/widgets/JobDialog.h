// A dialog whose work runs as a job on the JobsService (File → Export model…, Import model…): closing it
// while the job runs only hides it, and it closes for good when the job ends, so the UI thread never
// waits for the engine; and its wrapped lines (an explanation, a status, an error) can grow it.
#pragma once
#include <QDialog>

class JobDialog : public QDialog {
    Q_OBJECT
public:
    bool isBusy() const { return m_busy; }
    void done(int result) override;

protected:
    using QDialog::QDialog;
    /// The job started (true) or ended (false); a dialog closed while it ran closes now.
    void setJobRunning(bool running);
    /// Grows the height to what the wrapped lines need at the present width: left at the old height, the
    /// layout squeezes wrapped labels and cuts them mid-sentence. Activating the layout first drops the
    /// heights it cached for the old texts. Grown past the screen's foot, it moves up.
    void growToFit();

private:
    bool m_busy = false, m_closeWhenDone = false;
};
