#include "gui_startup_job.h"

#include "main_window.h"
#include "views/timeline/timeline_panel.h"

#include "app/requests/allocator_options.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"

#include "core/sweep/decimal_grid.h"
#include "views/strip/feasibility_strip.h"

#include <QApplication>
#include <QPixmap>
#include <QTimer>

namespace rematlens {

namespace {

constexpr const char *kScreenshotSize = "1400x850";

bool schedulesAsked(const GuiOptions &options)
{
    return options.checkpointing || options.optimal || options.timeLimit;
}

} // namespace

GuiStartupJob::GuiStartupJob(MainWindow &window, GuiOptions options)
    : QObject(&window), m_window(window), m_options(std::move(options))
{
}

std::optional<QSize> GuiStartupJob::windowSize(const GuiOptions &options)
{
    const std::string text = !options.size.empty() ? options.size : options.screenshot.empty() ? "" : kScreenshotSize;
    if (text.empty())
        return std::nullopt;
    const QStringList parts = QString::fromStdString(text).split(QLatin1Char('x'));
    bool okWidth = false;
    bool okHeight = false;
    const QSize size = parts.size() == 2 ? QSize(parts[0].toInt(&okWidth), parts[1].toInt(&okHeight)) : QSize();
    if (!okWidth || !okHeight || size.width() < 300 || size.height() < 200 || size.width() > 10000 ||
        size.height() > 10000)
        return QSize();
    return size;
}

QString GuiStartupJob::validate(const GuiOptions &options)
{
    if (const std::optional<QSize> size = windowSize(options); size && size->isEmpty())
        return QStringLiteral("--size expects WIDTHxHEIGHT in pixels, such as 1400x850");
    if (!options.sweep.empty() && QString::fromStdString(options.sweep).split(QLatin1Char(':')).size() != 3)
        return QStringLiteral("--sweep expects FROM:TO:STEP, such as 0.40:0.45:0.001");
    if (!options.select.empty() && !DecimalGrid::parseRatio(options.select))
        return QStringLiteral("--select expects a ratio, such as 0.419");
    if ((options.map || options.selectBytes) && options.sweep.empty())
        return QStringLiteral("--map and --select-bytes need --sweep: the map covers the sweep's range");
    if (options.selectBytes && !options.map)
        return QStringLiteral("--select-bytes selects an interval of the map: add --map");
    if (!options.zoomBytes.empty() && !zoomBytes(options))
        return QStringLiteral("--zoom-bytes expects X:Y in bytes with X < Y, such as 3683000000:3683000100");
    if (options.timeLimit && !(*options.timeLimit > 0))
        return QStringLiteral("--time-limit expects a positive number of seconds");
    std::vector<AllocatorConfig> models;
    if (const std::string problem = resolveAllocatorRows(options.allocator, models); !problem.empty())
        return QString::fromStdString(problem);
    return {};
}

// The sweep the window starts when the trace is read: the remembered settings, but for what
// the command line names.
void GuiStartupJob::applySweepOptions()
{
    SweepParameters p = m_window.sweepParameters();
    if (!m_options.sweep.empty()) {
        const QStringList parts = QString::fromStdString(m_options.sweep).split(QLatin1Char(':'));
        p.from = parts[0];
        p.to = parts[1];
        p.step = parts[2];
    }
    if (!m_options.policies.empty()) {
        p.policies.clear();
        for (const std::string &policy : m_options.policies)
            p.policies << QString::fromStdString(policy);
    }
    if (schedulesAsked(m_options)) {
        p.checkpointing = m_options.checkpointing;
        p.optimal = m_options.optimal;
    }
    if (m_options.timeLimit)
        p.timeLimit = QString::number(*m_options.timeLimit);
    m_window.setSweepParameters(p);
    m_window.chooseAllocatorModels(m_options.allocator);
}

void GuiStartupJob::start()
{
    applySweepOptions();
    if (!m_options.overlay.empty())
        m_window.timeline()->setOverlay(m_options.overlay == "below"   ? TimelinePanel::Overlay::BudgetBelow
                                        : m_options.overlay == "above" ? TimelinePanel::Overlay::BudgetAbove
                                                                       : TimelinePanel::Overlay::None);
    connect(&m_window, &MainWindow::sweepFinished, this, &GuiStartupJob::afterSweep, Qt::SingleShotConnection);
    if (screenshot())
        connect(&m_window, &MainWindow::traceFailed, this, &GuiStartupJob::fail);
    if (const std::optional<QSize> size = windowSize(m_options)) {
        m_window.resize(*size);
        m_window.arrangeDocks();
    }
}

std::optional<std::pair<double, double>> GuiStartupJob::zoomBytes(const GuiOptions &options)
{
    const QStringList parts = QString::fromStdString(options.zoomBytes).split(QLatin1Char(':'));
    bool okFrom = false;
    bool okTo = false;
    if (parts.size() != 2)
        return std::nullopt;
    const qlonglong from = parts[0].toLongLong(&okFrom);
    const qlonglong to = parts[1].toLongLong(&okTo);
    if (!okFrom || !okTo || from < 0 || to <= from)
        return std::nullopt;
    return std::pair(static_cast<double>(from), static_cast<double>(to));
}

// What the window shows once the sweep is done belongs in the picture: the schedule rows, the
// trace's known maps (the atlas's among them), the map asked for.
void GuiStartupJob::afterSweep()
{
    if (m_window.schedulesRunning()) {
        connect(&m_window, &MainWindow::schedulesFinished, this, &GuiStartupJob::afterSweep, Qt::SingleShotConnection);
        return;
    }
    if (m_window.knownMapsPending()) {
        connect(&m_window, &MainWindow::knownMapsShown, this, &GuiStartupJob::afterSweep, Qt::SingleShotConnection);
        return;
    }
    if (m_options.map && !m_mapped) {
        connect(&m_window, &MainWindow::mapFinished, this, [this] {
            m_mapped = true;
            afterSweep();
        }, Qt::SingleShotConnection);
        if (!m_window.startMap())
            fail(QStringLiteral("cannot map the sweep's range exactly (see above)"));
        return;
    }
    if (const auto zoom = zoomBytes(m_options))
        m_window.strip()->showBudgets(zoom->first, zoom->second);
    if (m_options.selectBytes) {
        waitForRunViews();
        if (!m_window.strip()->selectInterval(0, *m_options.selectBytes))
            fail(QStringLiteral("--select-bytes: no mapped interval holds %1 B").arg(*m_options.selectBytes));
        m_window.strip()->setFocus();
        return;
    }
    if (m_options.select.empty()) {
        finish();
        return;
    }
    // The timeline replays the selected run first; grab once it shows (or give up waiting).
    waitForRunViews();
    m_window.strip()->selectRatio(*DecimalGrid::parseRatio(m_options.select));
    m_window.strip()->setFocus();
}

// The timeline and the memory map are built by jobs of their own; finish once both show (or
// give up waiting).
void GuiStartupJob::waitForRunViews()
{
    m_viewsPending = 2;
    const auto shown = [this] {
        if (--m_viewsPending == 0)
            finish();
    };
    connect(&m_window, &MainWindow::timelineShown, this, shown, Qt::SingleShotConnection);
    connect(&m_window, &MainWindow::memoryMapShown, this, shown, Qt::SingleShotConnection);
    QTimer::singleShot(20000, this, &GuiStartupJob::finish);
}

// Once, whichever comes first: the run views shown, or the wait for them given up.
void GuiStartupJob::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (!screenshot())
        return;
    if (m_window.holeAnatomyBusy()) { // the story belongs in the picture (or as much as two minutes tell)
        connect(&m_window, &MainWindow::holeExplained, this, &GuiStartupJob::grabSoon, Qt::SingleShotConnection);
        QTimer::singleShot(120000, this, &GuiStartupJob::grabSoon);
        return;
    }
    grabSoon();
}

void GuiStartupJob::grabSoon()
{
    if (m_grabbing)
        return;
    m_grabbing = true;
    // Let the pending redraws happen before grabbing.
    QTimer::singleShot(150, this, [this] {
        const QPixmap picture = m_window.grab();
        if (!picture.save(QString::fromStdString(m_options.screenshot), "PNG")) {
            fail(QStringLiteral("cannot write the screenshot to %1").arg(QString::fromStdString(m_options.screenshot)));
            return;
        }
        QApplication::exit(0);
    });
}

void GuiStartupJob::fail(const QString &message)
{
    if (screenshot())
        QApplication::exit(reportError(ExitBadInput, message.toStdString()));
    else
        reportError(ExitBadInput, message.toStdString()); // the window stays, with what it has
}

} // namespace rematlens
