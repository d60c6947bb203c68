#pragma once

#include "app_settings.h"
#include "session_state.h"

#include "core/sim/run_request.h"

#include <QObject>

#include <functional>
#include <optional>

class QWidget;

namespace rematlens {

class MainWindow;

// File > Save Session and Open Session: what the window shows, captured as a SessionState and
// brought back. Opening first reads the file and checks that its trace is there with the same
// SHA-256 (offering to locate a moved trace); on any problem the window is left as it was. The
// trace then opens as any other, and once it is loaded the sweep settings, overlay and axis
// apply, then the pinned run, the selection, the timeline's zoom and the strip's view.
class SessionController : public QObject {
    Q_OBJECT

public:
    using StripViewGetter = std::function<std::optional<SessionState::Range>()>;
    using StripViewSetter = std::function<void(const SessionState::Range &)>;

    explicit SessionController(MainWindow &window);

    // How sessions read and set the budget range the strip shows; until set, sessions keep none.
    void setStripViewAccess(StripViewGetter get, StripViewSetter set);

    SessionState capture() const;
    bool save(const QString &path, QString &error) const;
    // Reads the session and restores it when its trace (at `tracePath`, or where it was saved)
    // is there unchanged; otherwise false with the reason, and nothing changes.
    bool open(const QString &path, QString &error, const QString &tracePath = {});
    // The same behind file dialogs; a missing or changed trace can be located elsewhere.
    void chooseAndSave(QWidget *parent);
    void chooseAndOpen(QWidget *parent);

signals:
    void restored(); // a session opened has been applied in full
    void problem(const QString &title, const QString &message);

private:
    void apply(const SessionState &state, const QString &tracePath);
    void applySettings();
    void applyRuns();
    void applyTimelineRange();
    void applyMemoryMapStep(std::size_t step);
    void finish();
    std::optional<RunRequest> planRun(const SessionState::Run &run, QString &error) const;
    QString locateTrace(QWidget *parent, const SessionState &state, QString problem);

    MainWindow &m_window;
    AppSettings m_settings;
    StripViewGetter m_getStripView;
    StripViewSetter m_setStripView;
    std::optional<SessionState> m_pending; // being restored
    QMetaObject::Connection m_loaded;
    QMetaObject::Connection m_failed;
    QMetaObject::Connection m_shown;
};

} // namespace rematlens
