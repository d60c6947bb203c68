#include "status_field.h"

#include "views/common/elided_label.h"

#include <QStatusBar>

namespace rematlens {

QLabel *newStatusField(QStatusBar *bar, const QString &objectName)
{
    auto *label = new ElidedLabel(bar);
    label->setObjectName(objectName);
    label->setFrameShape(QFrame::StyledPanel);
    label->setContentsMargins(4, 0, 4, 0);
    label->hide();
    return label;
}

} // namespace rematlens
