// The points table as CSV and Markdown (File ▸ Export table…, `analyze --format`), and the
// speed-up of a run over its baseline (issue 4: review documents, compare runs).
#include "core/analysis/compare.h"
#include "core/analysis/payoff.h"
#include "core/report/report.h"

#include "core/io/json_detail.h"
#include "core/model/shortest_number.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>

using namespace ridgepoint;

Q_DECLARE_METATYPE(std::optional<double>)

namespace {

KernelPoint point(const std::string &name, double flops, double bytes,
    std::optional<double> seconds, std::optional<double> rate = std::nullopt)
{
    KernelPoint p;
    p.name = name;
    p.flops = flops;
    p.bytes.push_back({ std::nullopt, bytes });
    p.seconds = seconds;
    p.measuredRate = rate;
    return p;
}

// π = 1 TFLOP/s, β = 100 GB/s (ridge at 10 FLOP/B). Numbers chosen so every quotient is the
// double nearest its decimal, and the expected text can be written by hand.
std::vector<AnalyzedPoint> analysed()
{
    const Hardware hw = makeSimpleMachine(1e12, 1e11);
    std::vector<KernelPoint> points { point("stream", 1e9, 5e8, 0.0625),
        point("gemm, \"tiled\"", 1e12, 1e10, 2.0), point("plan|b", 1e9, 1e9, std::nullopt) };
    points[0].group = "memory";
    points[1].group = "math";
    points[1].precision = Precision::FP32;
    std::vector<Diagnostic> problems;
    auto out = analyzePoints(points, hw, {}, problems);
    if (!problems.empty() || out.size() != 3)
        qFatal("test points cannot be analysed");
    return out;
}

// Points that exercise every part of the JSON: two byte levels, a point placed by intensity
// and rate, one with no time and no source, one that breaks its roof, and names that need
// escaping (quotes, a backslash, a control character, UTF-8, a byte that is not UTF-8).
std::vector<AnalyzedPoint> varied(const Hardware &hw)
{
    std::vector<KernelPoint> points { point("stream", 1e9, 5e8, 0.0625),
        point("q\"uote\\d\ttab\x01", 3e9, 7e8, 1e-3), point("\xC2\xB5-kernel \xFF", 1e9, 1e9, 1e-9),
        point("planned", 1e12, 3e7, std::nullopt) };
    points[0].bytes.push_back({ MemoryLevel::L2, 2.5e9 });
    points[0].group = "g";
    points[0].precision = Precision::FP32;
    points[0].source = { "in.csv", 2 };
    points[1].source = { "in.csv", 3 };
    KernelPoint byRate;
    byRate.name = "by rate";
    byRate.intensity = 0.3;
    byRate.measuredRate = 2e10;
    points.push_back(byRate);
    std::vector<Diagnostic> problems;
    auto out = analyzePoints(points, hw, {}, problems);
    if (!problems.empty() || out.size() != points.size())
        qFatal("test points cannot be analysed");
    return out;
}

Hardware twoLevelMachine()
{
    Hardware hw = makeSimpleMachine(1e12, 1e11);
    hw.memory.push_back({ "L2 cache", MemoryLevel::L2, 1e12, std::nullopt, true });
    return hw;
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void speedupPrefersTimeOverRate_data();
    void speedupPrefersTimeOverRate();
    void matchesBaselineByFirstName();
    void csvIsRfc4180WithSiUnitsAndFullPrecision();
    void csvAddsSpeedupColumnsWhenGiven();
    void csvOfNoPointsIsTheHeader();
    void markdownIsAlignedWithHumanUnits();
    void jsonIsLaidOutAsNlohmannDumpsIt();
    void jsonWriterPiecesJoinToTheSameText();
    void namesAreQuotedWhereverTheSpecialByteIs_data();
    void namesAreQuotedWhereverTheSpecialByteIs();
    void jsonNumbersAreNlohmanns_data();
    void jsonNumbersAreNlohmanns();
    void manyJsonNumbersAreNlohmannsOrShorter();
};

void TestReport::speedupPrefersTimeOverRate_data()
{
    QTest::addColumn<double>("baseSeconds"); // 0: none
    QTest::addColumn<double>("baseRate");
    QTest::addColumn<double>("currentSeconds");
    QTest::addColumn<double>("currentRate");
    QTest::addColumn<double>("factor"); // 0: no speed-up
    QTest::addColumn<bool>("byTime");

    // 1 GFLOP in both runs.
    QTest::newRow("twice as fast") << 2.0 << 0.0 << 1.0 << 0.0 << 2.0 << true;
    QTest::newRow("slower") << 1.0 << 0.0 << 4.0 << 0.0 << 0.25 << true;
    QTest::newRow("rates only") << 0.0 << 1e9 << 0.0 << 3e9 << 3.0 << false;
    // A time on one side and a rate on the other: compared as rates (1 GFLOP / 0.5 s = 2e9).
    QTest::newRow("time vs rate") << 0.5 << 0.0 << 0.0 << 8e9 << 4.0 << false;
    QTest::newRow("planned current") << 1.0 << 0.0 << 0.0 << 0.0 << 0.0 << false;
    QTest::newRow("zero time") << 0.0 << 0.0 << 1.0 << 0.0 << 0.0 << false;
}

void TestReport::speedupPrefersTimeOverRate()
{
    QFETCH(double, baseSeconds);
    QFETCH(double, baseRate);
    QFETCH(double, currentSeconds);
    QFETCH(double, currentRate);
    QFETCH(double, factor);
    QFETCH(bool, byTime);
    auto opt = [](double v) { return v > 0.0 ? std::optional<double>(v) : std::nullopt; };
    const auto s = speedup(point("k", 1e9, 1e9, opt(baseSeconds), opt(baseRate)),
        point("k", 1e9, 1e9, opt(currentSeconds), opt(currentRate)));
    if (factor == 0.0) {
        QVERIFY(!s);
        return;
    }
    QVERIFY(s);
    QCOMPARE(s->factor, factor);
    QCOMPARE(s->basis, byTime ? SpeedupBasis::Time : SpeedupBasis::Rate);
}

void TestReport::matchesBaselineByFirstName()
{
    const std::vector<KernelPoint> baseline { point("a", 1, 1, 1.0), point("b", 1, 1, 1.0),
        point("a", 1, 1, 2.0) };
    const std::vector<KernelPoint> current { point("b", 1, 1, 1.0), point("c", 1, 1, 1.0),
        point("a", 1, 1, 1.0) };
    const auto match = matchByName(baseline, current);
    QCOMPARE(match.size(), std::size_t(3));
    QCOMPARE(match[0], std::optional<std::size_t>(1));
    QVERIFY(!match[1]);
    QCOMPARE(match[2], std::optional<std::size_t>(0));
}

void TestReport::csvIsRfc4180WithSiUnitsAndFullPrecision()
{
    const std::string expected
        = "kernel,group,precision,flops [FLOP],memory,bytes [B],intensity [FLOP/B],time [s],"
          "performance [FLOP/s],attainable [FLOP/s],utilization [1],payoff [1],bound,limiting "
          "ceiling,T_min [s],T_max [s],consistent,note,DRAM bytes [B],DRAM intensity [FLOP/B]\r\n"
          // Payoff = time share × (1 − utilization) of a 0.0625 + 2 = 2.0625 s total:
          // stream 0.0625/2.0625 × 0.92 = 0.92/33, gemm 2/2.0625 × 0.5 = 16/33, plan none.
          "stream,memory,,1e+09,Memory,5e+08,2,0.0625,1.6e+10,2e+11,0.08,0.02787878787878788,"
          "memory,Memory,0.005,"
          "0.006,true,\"measured 62.5 ms is above T_max 6 ms (the no-overlap bound): uncounted "
          "work or traffic, or poor overlap\",5e+08,2\r\n"
          "\"gemm, \"\"tiled\"\"\",math,fp32,1e+12,Memory,1e+10,100,2,5e+11,1e+12,0.5,"
          "0.48484848484848486,compute,"
          "Peak,1,1.1,true,\"measured 2 s is above T_max 1.1 s (the no-overlap bound): uncounted "
          "work or traffic, or poor overlap\",1e+10,100\r\n"
          "plan|b,,,1e+09,Memory,1e+09,1,,,1e+11,,,memory,Memory,0.01,0.011,true,,1e+09,1\r\n";
    QCOMPARE(tableCsv(analysed()), expected);
}

void TestReport::csvAddsSpeedupColumnsWhenGiven()
{
    const std::string csv = tableCsv(analysed(),
        { Speedup { 1.0 / 3.0, SpeedupBasis::Time }, std::nullopt,
            Speedup { 2.5, SpeedupBasis::Rate } });
    const auto firstLine = csv.substr(0, csv.find("\r\n"));
    // The per-level columns (DRAM bytes and intensity) come after the speed-up's.
    QVERIFY(firstLine.ends_with(",note,speed-up vs baseline [1],speed-up formula,DRAM bytes "
                                "[B],DRAM intensity [FLOP/B]"));
    QVERIFY(csv.find("poor overlap\",0.3333333333333333,baseline time ÷ current time,5e+08,2\r\n")
        != std::string::npos);
    QVERIFY(csv.find("poor overlap\",,,1e+10,100\r\n") != std::string::npos);
    QVERIFY(csv.ends_with(",true,,2.5,current FLOP/s ÷ baseline FLOP/s,1e+09,1\r\n"));
}

void TestReport::csvOfNoPointsIsTheHeader()
{
    const std::string csv = tableCsv({});
    QVERIFY(csv.starts_with("kernel,group,"));
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 1);
}

void TestReport::markdownIsAlignedWithHumanUnits()
{
    // Columns as wide as their widest cell; the note column as wide as the longest note. One
    // bytes column per level (DRAM only here), the intensity header naming the same level.
    const std::string note(103, ' ');
    const std::string rule(103, '-');
    const std::string expected
        = "| Kernel        | Group  |   FLOPs | DRAM bytes | DRAM intensity [FLOP/B] |    Time |"
          " Performance |  Attainable | Utilization | Payoff | Bound   | Limit  | T_min | Note"
        + note.substr(4) + " | Speed-up |\n"
        + "| ------------- | ------ | ------: | ---------: | ----------------------: | ------: |"
          " ----------: | ----------: | ----------: | -----: | ------- | ------ | ----: | "
        + rule + " | -------: |\n"
        + "| stream        | memory | 1 GFLOP |     500 MB |                       2 | 62.5 ms |"
          "  16 GFLOP/s | 200 GFLOP/s |         8 % | 2.79 % | memory  | Memory |  5 ms | "
          "measured 62.5 ms is above T_max 6 ms (the no-overlap bound): uncounted work or traffic, "
          "or poor overlap |       ×2 |\n";
    const std::string md = tableMarkdown(
        analysed(), { Speedup { 2.0, SpeedupBasis::Time }, std::nullopt, std::nullopt });
    QCOMPARE(md.substr(0, expected.size()), expected);
    // '|' in a name is escaped; a planned point has no time, rate or utilization.
    QVERIFY(md.find("| plan\\|b       |        | 1 GFLOP |       1 GB |                       1 |"
                    "       – |     planned | 100 GFLOP/s |           – |")
        != std::string::npos);
}

void TestReport::jsonIsLaidOutAsNlohmannDumpsIt()
{
    // The report is written directly, not through a JSON tree: read back and dumped by nlohmann
    // (indent 2, invalid UTF-8 replaced), it must give the same bytes.
    const Hardware hw = twoLevelMachine();
    for (const auto &points : { varied(hw), analysed(), std::vector<AnalyzedPoint> {} }) {
        const std::string text = analysisJson(hw, points);
        const auto again = nlohmann::ordered_json::parse(text);
        QCOMPARE(again.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", text);
        QCOMPARE(again["points"].size(), points.size());
    }
    const std::string text = analysisJson(hw, varied(hw));
    QVERIFY(text.find("\"name\": \"q\\\"uote\\\\d\\ttab\\u0001\"") != std::string::npos);
    QVERIFY(text.find("\"name\": \"\xC2\xB5-kernel \xEF\xBF\xBD\"") != std::string::npos);
    QVERIFY(text.find("\"flops\": 1000000000.0,") != std::string::npos);
}

void TestReport::jsonWriterPiecesJoinToTheSameText()
{
    // Enough points for several pieces of about a megabyte each.
    const Hardware hw = twoLevelMachine();
    std::vector<AnalyzedPoint> points;
    for (int i = 0; i < 800; ++i) {
        for (auto &p : varied(hw))
            points.push_back(std::move(p));
    }
    std::vector<std::string> pieces;
    // The same total time analysisJson shares out as payoff.
    AnalysisJsonWriter writer(
        hw, [&](std::string_view piece) { pieces.emplace_back(piece); }, totalSeconds(points));
    for (const auto &[p, analysis] : points)
        writer.add(p, analysis);
    writer.finish();
    QVERIFY(pieces.size() >= 3);
    std::string joined;
    for (const auto &piece : pieces)
        joined += piece;
    QCOMPARE(joined, analysisJson(hw, points));
    // Read back, every number is its point's: the writer copies a number written before from
    // where it is in the output, and forgets those places when a piece is handed on.
    const auto parsed = nlohmann::json::parse(joined);
    QCOMPARE(parsed["points"].size(), points.size());
    // A number where the point has one (null where it does not apply: no times for a point
    // known by intensity, no bandwidth for a level without a ceiling).
    const auto same = [](const nlohmann::json &json, double value) {
        return json.is_null() || (json.is_number() && json.get<double>() == value);
    };
    std::size_t numbers = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto &json = parsed["points"][i];
        const PointAnalysis &a = points[i].analysis;
        QVERIFY(same(json["peak"], a.peak));
        QVERIFY(same(json["t_min"], a.tMin));
        QVERIFY(same(json["t_max"], a.tMax));
        QVERIFY(same(json["attainable"], a.attainable));
        QVERIFY(same(json["levels"][0]["bandwidth"], a.levels.front().bandwidth));
        numbers += json["peak"].is_number() && json["t_min"].is_number() ? 2 : 0;
    }
    QVERIFY(numbers > points.size()); // most of them are numbers
}

void TestReport::namesAreQuotedWhereverTheSpecialByteIs_data()
{
    // The CSV and JSON writers look at names eight bytes at a time, then byte by byte: a byte
    // that needs quoting (CSV) or escaping (JSON) must be found in the first word, across a word
    // boundary and in the tail. Expected: RFC 4180 (quoted, quotes doubled) and JSON (RFC 8259
    // section 7: \" \\ and \u00XX for control characters), by hand.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("csv");
    QTest::addColumn<QString>("json");
    QTest::newRow("plain, 17 bytes") << "abcdefghijklmnopq"
                                     << "abcdefghijklmnopq"
                                     << "\"abcdefghijklmnopq\"";
    QTest::newRow("comma first") << ",bcdefghij"
                                 << "\",bcdefghij\""
                                 << "\",bcdefghij\"";
    QTest::newRow("comma at 8") << "abcdefgh,jk"
                                << "\"abcdefgh,jk\""
                                << "\"abcdefgh,jk\"";
    QTest::newRow("quote at 7") << "abcdefg\"ijk"
                                << "\"abcdefg\"\"ijk\""
                                << "\"abcdefg\\\"ijk\"";
    QTest::newRow("quote in the tail") << "abcdefghijklmnopqrstu\"w"
                                       << "\"abcdefghijklmnopqrstu\"\"w\""
                                       << "\"abcdefghijklmnopqrstu\\\"w\"";
    QTest::newRow("CR at 15") << "abcdefghijklmno\rq"
                              << "\"abcdefghijklmno\rq\""
                              << "\"abcdefghijklmno\\rq\"";
    QTest::newRow("LF at 16") << "abcdefghijklmnop\nq"
                              << "\"abcdefghijklmnop\nq\""
                              << "\"abcdefghijklmnop\\nq\"";
    QTest::newRow("backslash at 9") << "abcdefghi\\kl"
                                    << "abcdefghi\\kl"
                                    << "\"abcdefghi\\\\kl\"";
    QTest::newRow("control byte at 12") << "abcdefghijkl\x1fn"
                                        << "abcdefghijkl\x1fn"
                                        << "\"abcdefghijkl\\u001fn\"";
    QTest::newRow("DEL is plain") << "abcdefghijk\x7fm"
                                  << "abcdefghijk\x7fm"
                                  << "\"abcdefghijk\x7fm\"";
    QTest::newRow("UTF-8 at 10") << QString::fromUtf8("abcdefghij\xC2\xB5s")
                                 << QString::fromUtf8("abcdefghij\xC2\xB5s")
                                 << QString::fromUtf8("\"abcdefghij\xC2\xB5s\"");
}

void TestReport::namesAreQuotedWhereverTheSpecialByteIs()
{
    QFETCH(QString, name);
    QFETCH(QString, csv);
    QFETCH(QString, json);
    const Hardware hw = makeSimpleMachine(1e12, 1e11);
    std::vector<Diagnostic> problems;
    const auto points
        = analyzePoints({ point(name.toStdString(), 1e9, 5e8, std::nullopt) }, hw, {}, problems);
    QCOMPARE(points.size(), std::size_t { 1 });
    const std::string table = tableCsv(points);
    const std::size_t row = table.find("\r\n") + 2;
    const std::string cell = csv.toStdString() + ",";
    QCOMPARE(QString::fromStdString(table.substr(row, cell.size())), csv + ",");
    const std::string text = analysisJson(hw, points);
    QVERIFY2(text.find("\"name\": " + json.toStdString() + ",") != std::string::npos, text.c_str());
}

namespace {

std::string nlohmannNumber(double value)
{
    std::array<char, 64> text {};
    return { text.data(), nlohmann::detail::to_chars(text.data(), text.data() + 64, value) };
}

std::string ourNumber(double value)
{
    std::array<char, 64> text {};
    return { text.data(), writeJsonNumber(text.data(), value) };
}

// Our text of `value` against nlohmann's: it reads back, in nlohmann's layout (an exponent
// where nlohmann writes one, ".0" where it does), and it is no longer. Where Grisu2's digits
// are not the shortest (70.72236075000001 for 70.72236075) ours are shorter, and where they are
// as short but not the closest (711976205697534.7) ours differ in the last digit.
bool nlohmannsOrShorter(double value)
{
    const std::string ours = ourNumber(value);
    const std::string theirs = nlohmannNumber(value);
    const auto exponentForm
        = [](const std::string &text) { return text.find('e') != std::string::npos; };
    return std::strtod(ours.c_str(), nullptr) == value && ours.size() <= theirs.size()
        && exponentForm(ours) == exponentForm(theirs)
        && ours.ends_with(".0") == theirs.ends_with(".0");
}

} // namespace

void TestReport::jsonNumbersAreNlohmanns_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected"); // nlohmann's text, by its format_buffer rules
    QTest::newRow("zero") << 0.0 << "0.0";
    QTest::newRow("negative zero") << -0.0 << "-0.0";
    QTest::newRow("one") << 1.0 << "1.0";
    QTest::newRow("flops") << 5274270.0 << "5274270.0";
    QTest::newRow("negative integer") << -42.0 << "-42.0";
    QTest::newRow("H100 peak, 15 digits") << 989e12 << "989000000000000.0";
    QTest::newRow("largest direct") << 999999999999999.0 << "999999999999999.0";
    QTest::newRow("1e15 is exponent form") << 1e15 << "1e+15";
    QTest::newRow("fraction") << 0.000674066 << "0.000674066";
    QTest::newRow("half") << 2.5 << "2.5";
}

void TestReport::jsonNumbersAreNlohmanns()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(nlohmannNumber(value)), expected);
    QCOMPARE(QString::fromStdString(ourNumber(value)), expected);
}

void TestReport::manyJsonNumbersAreNlohmannsOrShorter()
{
    // Every whole number to 100000, then 200k from a fixed generator: whole numbers of 1 to 15
    // digits (random, with trailing zeros, near powers of two and ten) and fractions.
    for (int i = 0; i <= 100000; ++i) {
        const auto value = static_cast<double>(i);
        if (!nlohmannsOrShorter(value))
            QFAIL(nlohmannNumber(value).c_str());
    }
    std::uint64_t state = 99;
    const auto next = [&] {
        state = state * 6364136223846793005U + 1442695040888963407U;
        return state >> 11U;
    };
    for (int i = 0; i < 200000; ++i) {
        const auto digits = next() % 15 + 1;
        std::uint64_t whole = next() % static_cast<std::uint64_t>(std::pow(10.0, digits));
        double value = static_cast<double>(whole);
        switch (i % 4) {
        case 1:
            value = static_cast<double>(whole / 1000 * 1000);
            break;
        case 2:
            value = std::ldexp(1.0, static_cast<int>(next() % 50)) + static_cast<double>(next() % 5)
                - 2.0;
            break;
        case 3:
            value = static_cast<double>(whole) / std::pow(10.0, static_cast<double>(next() % 20));
            break;
        default:
            break;
        }
        value = i % 7 == 0 ? -value : value;
        if (!nlohmannsOrShorter(value))
            QFAIL(nlohmannNumber(value).c_str());
    }
    // Any double: 17-digit ones, where Grisu2 and the shortest closest digits part now and then.
    for (int i = 0; i < 200000; ++i) {
        const double value = std::bit_cast<double>(next() << 11U ^ next());
        if (std::isfinite(value) && !nlohmannsOrShorter(value))
            QFAIL(nlohmannNumber(value).c_str());
    }
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
