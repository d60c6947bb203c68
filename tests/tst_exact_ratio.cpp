// exactRatio must equal Python's int / int (the correctly rounded quotient) everywhere; the
// expected values below were computed by Python from the exact integers.
#include "core/sim/exact_ratio.h"

#include <QtTest>

#include <cmath>

using namespace rematlens;

class ExactRatioTest : public QObject {
    Q_OBJECT

private slots:
    void matchesPython();
    void edgeCases();
    void exceedsIsExact();
};

void ExactRatioTest::matchesPython()
{
    struct Case {
        std::uint64_t numerator;
        std::uint64_t denominatorHigh;
        std::uint64_t denominatorLow;
        double expected;
    };
    const Case cases[] = {
        {167279807973uLL, 0uLL, 55670462648394833uLL, 0x1.934ce233bd2cap-19},
        {841uLL, 37uLL, 6745769884264228882uLL, 0x1.681dd0fdca378p-60},
        {932uLL, 5uLL, 691672907343361485uLL, 0x1.72066f14462a9p-57},
        {629201619997852uLL, 0uLL, 605979998170uLL, 0x1.0394878a9d663p+10},
        {7447619574029751uLL, 14uLL, 17477362246067780644uLL, 0x1.c528b0a363420p-16},
        {285288344804199850uLL, 3uLL, 7317463276519295734uLL, 0x1.2a64c4aec4052p-8},
        {50017773uLL, 18uLL, 2456641775679608524uLL, 0x1.50b6a975d3ab2p-43},
        {4870064036505253uLL, 0uLL, 598647uLL, 0x1.e4e40d0575480p+32},
        {895759484249uLL, 39030526uLL, 1901042282212365708uLL, 0x1.6698e9c437560p-50},
        {866402181745464648uLL, 0uLL, 9867284054095315uLL, 0x1.5f38dede2adacp+6},
        {578uLL, 0uLL, 649079uLL, 0x1.d2dfe24d89a3dp-11},
        {533021002uLL, 52158940uLL, 7887685854882091363uLL, 0x1.47036db2a7f8fp-61},
        {641949871889uLL, 0uLL, 345607816474569049uLL, 0x1.f29b1e32c6e37p-20},
        {852958474uLL, 0uLL, 857700650133uLL, 0x1.04b1d2b43c340p-10},
        {87891152uLL, 31uLL, 9688165431753121878uLL, 0x1.5453e9e9be2e1p-43},
        {492759215393uLL, 0uLL, 17657261709376765uLL, 0x1.d4332b4226df3p-16},
        {121uLL, 48uLL, 3043013691408259305uLL, 0x1.418fc1eb1e27cp-63},
        {1022854985046uLL, 0uLL, 45202887629106282uLL, 0x1.7ba2e77949da4p-16},
        {783uLL, 56uLL, 14556218242523845619uLL, 0x1.b9362338b22c2p-61},
        {761670025795uLL, 0uLL, 8947299898662862uLL, 0x1.650e01f3e13bap-14},
        {2103875757544643806uLL, 0uLL, 880771uLL, 0x1.161410c0ffd60p+41},
        {968uLL, 0uLL, 12556794192626218uLL, 0x1.5b2e6b4855eeep-44},
        {63uLL, 43428082uLL, 5711247999117884215uLL, 0x1.856992ffad7c7p-84},
        {3141651947157424396uLL, 27799204671056722uLL, 5249860912907912049uLL, 0x1.c40c975355725p-58},
        {1030889058056uLL, 0uLL, 193746586134622762uLL, 0x1.6512d854035a8p-18},
        {2276757087461178745uLL, 0uLL, 228808uLL, 0x1.21991a464c597p+43},
        {812304330960uLL, 0uLL, 431205687121uLL, 0x1.e24092d52b91ep+0},
        {1498492960831976uLL, 0uLL, 633461090374789239uLL, 0x1.360f2ae1a3f1fp-9},
        {154117960026uLL, 20062352948539487uLL, 15937700361070357169uLL, 0x1.01c36f2af4794p-81},
        {3231524745452363uLL, 64272253uLL, 7017903211715130886uLL, 0x1.7f989153ea189p-39},
        {162050096uLL, 0uLL, 184778uLL, 0x1.b67fdac25b1fap+9},
        {249061790uLL, 32545297uLL, 222524240882821611uLL, 0x1.e9c70af33eae1p-62},
        {1211704905999189456uLL, 0uLL, 2624272280078170uLL, 0x1.cdbad8f125579p+8},
        {3325939070727170uLL, 60uLL, 5877348101999279378uLL, 0x1.91315a3f8740ap-19},
        {741411916uLL, 47195306619211508uLL, 17528538041507331863uLL, 0x1.0de2dae7099bep-90},
        {468uLL, 49040606061664403uLL, 17559201480616711314uLL, 0x1.57d3ac4f0b73fp-111},
        {1835772137570496932uLL, 0uLL, 119370139419610286uLL, 0x1.ec1f4f838af3fp+3},
        {3606869014793484uLL, 0uLL, 199869uLL, 0x1.0ce8a8500fcdep+34},
        {1009uLL, 0uLL, 177986137138uLL, 0x1.8591c3f7bb41dp-28},
        {349uLL, 0uLL, 1888570237800257630uLL, 0x1.aa1c3be9d663ap-53},
        {1uLL, 0uLL, 3uLL, 0x1.5555555555555p-2},
        {9007199254740993uLL, 0uLL, 3uLL, 0x1.5555555555556p+51},
        {1000000000000000000uLL, 0uLL, 1000000000000000001uLL, 0x1.0000000000000p+0},
        {9223372036854775807uLL, 4611686018427387904uLL, 12345uLL, 0x1.0000000000000p-63},
        {5uLL, 68719476736uLL, 0uLL, 0x1.4000000000000p-98},
    };
    for (const Case &c : cases) {
        const uint128 denominator = (static_cast<uint128>(c.denominatorHigh) << 64) | c.denominatorLow;
        const double got = exactRatio(c.numerator, denominator);
        QVERIFY2(got == c.expected, qPrintable(QStringLiteral("%1 / (%2:%3): got %4, expected %5")
                                                   .arg(c.numerator)
                                                   .arg(c.denominatorHigh)
                                                   .arg(c.denominatorLow)
                                                   .arg(got, 0, 'g', 17)
                                                   .arg(c.expected, 0, 'g', 17)));
    }
}

void ExactRatioTest::edgeCases()
{
    QVERIFY(std::isinf(exactRatio(5, uint128{0})));
    QCOMPARE(exactRatio(0, uint128{7}), 0.0);
    QCOMPARE(exactRatio(6, 2, 3), 1.0);
    // A product that overflows 64 bits is still divided exactly.
    const std::uint64_t big = std::uint64_t{1} << 40;
    QCOMPARE(exactRatio(big, big, big), std::ldexp(1.0, -40));
}

void ExactRatioTest::exceedsIsExact()
{
    // 2^53 + 1 is not a double; a rounding comparison would call it equal to 2^53.
    const std::int64_t value = (std::int64_t{1} << 53) + 1;
    QVERIFY(exceedsExactly(value, std::ldexp(1.0, 53)));
    QVERIFY(!exceedsExactly(100, 100.0));
    QVERIFY(exceedsExactly(101, 100.5));
    QVERIFY(!exceedsExactly(100, std::numeric_limits<double>::infinity()));
    QVERIFY(!exceedsExactly(100, std::nan("")));
}

QTEST_GUILESS_MAIN(ExactRatioTest)
#include "tst_exact_ratio.moc"
