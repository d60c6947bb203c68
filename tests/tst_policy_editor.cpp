// The custom policy editor offscreen: errors show in red with the offending character marked,
// valid formulas enable Add, accepted formulas are remembered, the sweep panel takes them.
#include "gui/test_window.h"

#include "app/gui/app_settings.h"
#include "app/gui/policy_editor_dialog.h"
#include "views/sweep/sweep_panel.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace rematlens;

class PolicyEditorTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void validatesAsTyped();
    void remembersAcceptedExpressions();
    void panelTakesCustomPolicies();

private:
    GuiTestUser m_user;
};

void PolicyEditorTest::initTestCase()
{
    m_user.setUp(QStringLiteral("RematLensEditorTest"));
}

void PolicyEditorTest::init()
{
    m_user.reset(); // no expressions remembered from another case
}

void PolicyEditorTest::validatesAsTyped()
{
    AppSettings settings;
    PolicyEditorDialog editor(settings);
    auto *formula = editor.findChild<QLineEdit *>(QStringLiteral("formula"));
    auto *status = editor.findChild<QLabel *>(QStringLiteral("status"));
    QPushButton *add = editor.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(formula && status && add);
    QVERIFY(!add->isEnabled()); // empty
    QVERIFY(formula->toolTip().contains(QStringLiteral("estar")));
    QVERIFY(formula->toolTip().contains(QStringLiteral("shortfall")));

    QTest::keyClicks(formula, QStringLiteral("compute / sise"));
    QVERIFY(!editor.isValid());
    QVERIFY(!add->isEnabled());
    QVERIFY(status->styleSheet().contains(QStringLiteral("#c62828"))); // red
    QVERIFY2(status->text().contains(QStringLiteral("at character 11")), qPrintable(status->text()));
    QVERIFY(status->text().endsWith(QStringLiteral("\n") + QString(10, QLatin1Char(' ')) + QStringLiteral("^")));

    formula->setText(QStringLiteral("(compute + estar) / (size * staleness)"));
    QVERIFY(editor.isValid());
    QVERIFY(add->isEnabled());
    QVERIFY(editor.problem().isEmpty());
    QVERIFY(!status->styleSheet().contains(QStringLiteral("#c62828")));
    QVERIFY(status->text().contains(QStringLiteral("e*")));
    QCOMPARE(editor.policySpec(), QStringLiteral("expr:(compute + estar) / (size * staleness)"));
}

void PolicyEditorTest::remembersAcceptedExpressions()
{
    AppSettings settings;
    {
        PolicyEditorDialog editor(settings);
        editor.setExpression(QStringLiteral("size +"));
        editor.accept(); // refused: invalid
        QVERIFY(settings.userExpressions().isEmpty());
        editor.setExpression(QStringLiteral("compute / staleness"));
        editor.accept();
        QCOMPARE(editor.result(), int(QDialog::Accepted));
    }
    QCOMPARE(settings.userExpressions(), QStringList{QStringLiteral("compute / staleness")});
    PolicyEditorDialog again(settings);
    auto *saved = again.findChild<QListWidget *>(QStringLiteral("saved"));
    QCOMPARE(saved->count(), 1);
    saved->setCurrentRow(0);
    QCOMPARE(again.expression(), QStringLiteral("compute / staleness"));
    QVERIFY(again.isValid());
    settings.removeUserExpression(QStringLiteral("compute / staleness"));
    QVERIFY(settings.userExpressions().isEmpty());
}

void PolicyEditorTest::panelTakesCustomPolicies()
{
    SweepPanel panel;
    QSignalSpy editorRequested(&panel, &SweepPanel::policyEditorRequested);
    const auto buttons = panel.findChildren<QPushButton *>();
    const auto custom = std::find_if(buttons.begin(), buttons.end(), [](const QPushButton *b) {
        return b->text().contains(QStringLiteral("Custom"));
    });
    QVERIFY(custom != buttons.end());
    (*custom)->click();
    QCOMPARE(editorRequested.count(), 1);

    panel.addPolicy(QStringLiteral("expr:compute / staleness"), true);
    SweepParameters p = panel.parameters();
    QVERIFY(p.policies.contains(QStringLiteral("expr:compute / staleness")));
    p.policies = {QStringLiteral("DTR"), QStringLiteral("DTRPenalty:b=2")}; // as remembered from a session
    panel.setParameters(p);
    const QStringList checked = panel.parameters().policies;
    QCOMPARE(checked, (QStringList{QStringLiteral("DTR"), QStringLiteral("DTRPenalty:b=2")}));
}

QTEST_MAIN(PolicyEditorTest)
#include "tst_policy_editor.moc"
