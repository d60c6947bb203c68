#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace rematlens {

class AppSettings;

// Writes an eviction score of the user's own: a formula over what the runtime knows of a
// storage, checked as it is typed (an error points at the offending character), with the
// expressions written before at hand. Accepting remembers the expression.
class PolicyEditorDialog : public QDialog {
    Q_OBJECT

public:
    explicit PolicyEditorDialog(AppSettings &settings, QWidget *parent = nullptr);

    QString expression() const;          // the formula, trimmed
    QString policySpec() const;          // "expr:" + the formula, as policies are named
    void setExpression(const QString &expression);
    bool isValid() const { return m_valid; }
    QString problem() const;             // the validation message shown (empty when valid)

    void accept() override;

private:
    void validate();
    void forgetSelected();

    AppSettings &m_settings;
    QLineEdit *m_formula;
    QLabel *m_status;
    QListWidget *m_saved;
    QPushButton *m_forget;
    QDialogButtonBox *m_buttons;
    bool m_valid = false;
};

} // namespace rematlens
