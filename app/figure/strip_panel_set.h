#pragma once

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/requests/figure_options.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/schedule_rows_model.h"
#include "views/strip/strip_figure.h"
#include "views/tables/sweep_result_model.h"

#include <memory>
#include <string>
#include <vector>

namespace rematlens {

// The runs behind the panels of a strip figure, one panel per trace: swept here on all cores,
// or read back from a sweep file; with --exact each row's range is also mapped exactly. Errors are reported on stderr; the add functions return the
// exit status.
class StripPanelSet {
public:
    int addSweep(const std::string &trace, const FigureOptions &options);
    int addSweepFile(const std::string &path, const FigureOptions &options);
    // The panels, zoomed to --zoom-from-bytes .. --zoom-to-bytes when given.
    std::vector<StripFigure::Panel> panels(const FigureOptions &options = {}) const;

private:
    struct Entry {
        QString title;
        std::unique_ptr<SweepResultModel> sweep;
        std::unique_ptr<HoleListModel> holes;
        std::unique_ptr<ExactMapModel> maps;
        std::unique_ptr<ScheduleRowsModel> schedules;
    };
    static void addScheduleRows(const LoadedTrace &trace, Entry &entry, const FigureOptions &options);
    int addExactMaps(const LoadedTrace &trace, Entry &entry, const FigureOptions &options);
    void setZoom(StripFigure::Panel &panel, const FigureOptions &options) const;
    void add(QString title, const Baseline &baseline, std::vector<GridPoint> grid, std::vector<RunRequest> requests,
             std::size_t policies, double overheadLimit, const std::vector<IndexedResult> &results);

    std::vector<Entry> m_entries;
};

} // namespace rematlens
