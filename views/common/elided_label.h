#pragma once

#include <QLabel>

namespace rematlens {

// A one-line label that gives up width to its neighbours: when it cannot have its text's
// width it ends the text in "…" instead of forcing the window wider or being cut mid-letter
// (its tooltip, set by its owner, holds the whole story).
class ElidedLabel : public QLabel {
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace rematlens
