#include "views/common/run_selection.h"

namespace rematlens {

void RunSelection::select(SelectedRun run)
{
    if (m_current && m_current->sameAs(run))
        return;
    m_current = std::move(run);
    emit changed();
}

void RunSelection::clear()
{
    if (!m_current)
        return;
    m_current.reset();
    emit changed();
}

} // namespace rematlens
