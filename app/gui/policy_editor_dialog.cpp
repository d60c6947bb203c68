#include "policy_editor_dialog.h"

#include "screen_fit.h"

#include "app_settings.h"

#include "core/sim/policy_spec.h"
#include "core/sim/score_expression.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace rematlens {

namespace {

QString variablesHelp()
{
    QString help = QObject::tr("The storage with the lowest score is evicted. Variables:");
    for (const ScoreVariableInfo &variable : scoreVariableInfos())
        help += QStringLiteral("\n  ") + QString::fromLatin1(variable.name) + QStringLiteral(": ")
                + QString::fromLatin1(variable.meaning);
    help += QObject::tr("\nOperators and functions: + - * / ^, min, max, abs, sqrt, log, a ? b : c, ...");
    return help;
}

} // namespace

PolicyEditorDialog::PolicyEditorDialog(AppSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_formula(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_saved(new QListWidget(this))
    , m_forget(new QPushButton(tr("&Forget"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Custom Eviction Policy"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_formula->setObjectName(QStringLiteral("formula"));
    m_formula->setFont(fixed);
    m_formula->setPlaceholderText(QStringLiteral("(compute + estar) / (size * staleness)"));
    m_formula->setToolTip(variablesHelp());
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setFont(fixed);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(false);
    m_saved->setObjectName(QStringLiteral("saved"));
    m_saved->addItems(m_settings.userExpressions());
    m_saved->setToolTip(tr("Expressions you wrote before; click one to edit it"));
    m_forget->setToolTip(tr("Remove the selected expression from this list"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Add to Policies"));

    auto *variables = new QLabel(variablesHelp(), this);
    variables->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Score formula:"), this));
    layout->addWidget(m_formula);
    layout->addWidget(m_status);
    layout->addWidget(variables);
    layout->addWidget(new QLabel(tr("Your expressions:"), this));
    layout->addWidget(m_saved);
    layout->addWidget(m_forget, 0, Qt::AlignLeft);
    layout->addWidget(m_buttons);

    connect(m_formula, &QLineEdit::textChanged, this, &PolicyEditorDialog::validate);
    connect(m_saved, &QListWidget::currentTextChanged, m_formula, &QLineEdit::setText);
    connect(m_forget, &QPushButton::clicked, this, &PolicyEditorDialog::forgetSelected);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &PolicyEditorDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &PolicyEditorDialog::reject);
    validate();
    fitToScreen(this, sizeHint()); // the list of variables is long
}

QString PolicyEditorDialog::expression() const
{
    return m_formula->text().trimmed();
}

QString PolicyEditorDialog::policySpec() const
{
    return QString::fromLatin1(kExpressionPrefix.data(), static_cast<qsizetype>(kExpressionPrefix.size()))
           + expression();
}

void PolicyEditorDialog::setExpression(const QString &expression)
{
    m_formula->setText(expression);
}

QString PolicyEditorDialog::problem() const
{
    return m_valid ? QString() : m_status->text();
}

void PolicyEditorDialog::validate()
{
    const std::string text = expression().toStdString();
    ExpressionError error;
    const std::optional<ScoreExpression> compiled = text.empty() ? std::nullopt
                                                                 : ScoreExpression::compile(text, error);
    m_valid = compiled.has_value();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_valid);
    if (text.empty()) {
        m_status->setStyleSheet(QString());
        m_status->setText(tr("Type a formula; hover over it for the variables."));
        m_valid = false;
        return;
    }
    if (!m_valid) {
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_status->setText(tr("%1 at character %2\n%3\n%4^")
                              .arg(QString::fromStdString(error.message))
                              .arg(error.position + 1)
                              .arg(expression(), QString(static_cast<qsizetype>(error.position), QLatin1Char(' '))));
        return;
    }
    QStringList reads;
    if (compiled->readsNeighbourhood())
        reads << tr("e* (kept incrementally, as DTR keeps it)");
    if (compiled->readsEqClasses())
        reads << tr("equivalence classes");
    m_status->setStyleSheet(QStringLiteral("color: #2e7d32;"));
    m_status->setText(reads.isEmpty() ? tr("Valid.") : tr("Valid; reads %1.").arg(reads.join(tr(" and "))));
}

void PolicyEditorDialog::forgetSelected()
{
    const QListWidgetItem *item = m_saved->currentItem();
    if (!item)
        return;
    m_settings.removeUserExpression(item->text());
    delete m_saved->takeItem(m_saved->row(item));
}

void PolicyEditorDialog::accept()
{
    if (!m_valid)
        return;
    m_settings.addUserExpression(expression());
    QDialog::accept();
}

} // namespace rematlens
