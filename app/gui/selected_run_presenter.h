#pragma once

#include <QObject>

class QTableView;

namespace rematlens {

class ExactMapModel;
class HoleListModel;
class RunDetailsModel;
class RunSelection;
class SweepResultModel;
struct SelectedRun;

// "Selected run" and the Holes table follow the one selection: the details list the fields of
// the run it names (a grid run's result once it has one, an interval's numbers), and the table
// marks the hole the run lies in, or nothing. Both refresh as results and maps arrive.
class SelectedRunPresenter : public QObject {
    Q_OBJECT

public:
    struct Parts {
        RunSelection *selection;
        const SweepResultModel *sweep;
        const ExactMapModel *maps;
        const HoleListModel *holes;
        RunDetailsModel *details;
        QTableView *holeView;
    };

    SelectedRunPresenter(Parts parts, QObject *parent);

    // The row of the hole holding the selected run, if any.
    static std::optional<int> holeRowOf(const HoleListModel &holes, const SweepResultModel &sweep,
                                        const SelectedRun &run);

    // Shows the selection again (after results arrived, a map grew, or the byte units changed).
    void refresh();

private:
    void showDetails();
    void markHole();

    Parts m_parts;
};

} // namespace rematlens
