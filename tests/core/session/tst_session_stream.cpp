// The session reader that reads each point as the parser finishes it (core/session/session_parse)
// against the reader that parses the whole file into one tree first (readSessionJsonWhole): the
// same session and the same messages in the same order, for good files, files in unusual
// shapes (keys in another order, older versions, repeated keys) and bad ones.
#include "core/io/formats/hardware_json.h"
#include "core/session/session.h"
#include "core/session/session_json.h"
#include "core/session/session_parse.h"
#include "core/session/session_read.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace ridgepoint;
using Json = nlohmann::ordered_json;

Q_DECLARE_METATYPE(std::string)

namespace {

Hardware machine()
{
    Hardware hw;
    hw.name = "Test machine";
    hw.source = "tests";
    hw.compute.push_back({ "FP32 vector", Precision::FP32, "vector", 1e12, false, {}, true });
    hw.compute.push_back({ "BF16 matrix", Precision::BF16, "matrix", 2e12, false, {}, true });
    hw.memory.push_back({ "HBM", MemoryLevel::HBM, 1e11, 0.9, true });
    hw.defaultCompute = "FP32 vector";
    return hw;
}

KernelPoint kernel(std::string name, double flops, double bytes, double seconds)
{
    KernelPoint p;
    p.name = std::move(name);
    p.flops = flops;
    p.bytes = { { std::nullopt, bytes } };
    p.seconds = seconds;
    p.source = { "runs/a.csv", 3 };
    return p;
}

// Three measured points (one moved, one without a source), a planned matmul of a sweep, a
// baseline, a note and a target.
Session rich()
{
    Session s;
    s.hardware = machine();
    s.compare = machine();
    s.compare->name = "Other";
    s.points.push_back({ kernel("gemm", 1e12, 1e10, 2.0), 1.0, 1.0, std::nullopt });
    s.points.push_back({ kernel("softmax", 1e9, 4e9, 0.05), 0.5, 0.8, std::nullopt });
    s.points.push_back({ kernel("norm", 2e8, 1e9, 0.01), 1.0, 1.0, std::nullopt });
    s.points.back().point.source = {};
    MatmulWorkload m;
    m.spec = MatmulSpec { 64, 4096, 8192, Precision::BF16, QuantMode::None };
    s.points.push_back({ kernel("matmul b=64", 2.0 * 64 * 4096 * 8192, 7e7, 1e-3), 1.0, 1.0,
        Workload { m, "matmuls", SweepMembership { 2, "b", 64 } } });
    s.lastSweepId = 2;
    s.view = ViewRange { 0.01, 1e4, 1e8, 1e14 };
    s.annotations.push_back({ "tiled in v2", "gemm", 0.0, 0.0 });
    s.targets.push_back({ "HBM", 0.6, "" });
    s.baseline = Baseline { "runs/old.csv", { kernel("gemm", 1e12, 1e10, 4.0) } };
    return s;
}

std::string richText()
{
    return writeSessionJson(rich());
}

std::string replaced(std::string text, const std::string &what, const std::string &with)
{
    return text.replace(text.find(what), what.size(), with);
}

// The rich session with one edit applied to its JSON.
std::string edited(const std::function<void(Json &)> &edit)
{
    Json json = Json::parse(richText());
    edit(json);
    return json.dump(2);
}

// The rich session with its top-level keys in the order given (the rest after them).
std::string reordered(const std::vector<std::string> &first)
{
    const Json json = Json::parse(richText());
    Json out = Json::object();
    for (const auto &key : first)
        out[key] = json[key];
    for (const auto &[key, value] : json.items())
        out[key] = value;
    return out.dump(2);
}

// Everything a reader said, severity and position included, one line each.
QString said(const SessionReadResult &result)
{
    QStringList lines;
    for (const auto &d : result.diagnostics)
        lines << QString::number(static_cast<int>(d.severity)) + " "
                + QString::fromStdString(d.toString());
    if (result.session)
        lines << QString::fromStdString(writeSessionJson(*result.session));
    lines << "version " + QString::number(result.version);
    return lines.join('\n');
}

} // namespace

class TestSessionStream : public QObject
{
    Q_OBJECT

private slots:
    void readsAsTheWholeTreeReader_data();
    void readsAsTheWholeTreeReader();
    void streamsOnlyWhatItMay_data();
    void streamsOnlyWhatItMay();
};

void TestSessionStream::readsAsTheWholeTreeReader_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<bool>("opens");
    QTest::newRow("rich") << richText() << true;
    // Without points the note on "gemm" has no point: refused.
    QTest::newRow("no points") << edited([](Json &j) { j["points"] = Json::array(); }) << false;
    QTest::newRow("points missing") << edited([](Json &j) { j.erase("points"); }) << false;
    QTest::newRow("no points, no notes") << edited([](Json &j) {
        j["points"] = Json::array();
        j.erase("annotations");
    }) << true;
    QTest::newRow("version 1") << edited([](Json &j) { j["version"] = 1; }) << true;
    QTest::newRow("points before the version") << reordered({ "format", "points" }) << true;
    QTest::newRow("points first") << reordered({ "points", "version", "format" }) << true;
    QTest::newRow("hardware last") << reordered({ "format", "version", "points", "view" }) << true;
    const std::string text = richText();
    const auto end = text.rfind('}');
    // The last "points" counts: none, so the note on "gemm" has no point.
    QTest::newRow("points repeated after them")
        << text.substr(0, end) + ", \"points\": []}" << false;
    QTest::newRow("version repeated after the points")
        << text.substr(0, end) + ", \"version\": 1}" << true;
    QTest::newRow("format repeated after the points")
        << text.substr(0, end) + ", \"format\": \"x\"}" << false;
    QTest::newRow("unknown keys") << edited([](Json &j) {
        j["colour"] = 1;
        j["points"][1]["speed"] = 2;
        j["points"][2]["point"]["when"] = 3;
    }) << true;
    QTest::newRow("an entry a number") << edited([](Json &j) { j["points"][1] = 4; }) << false;
    QTest::newRow("entries of every kind") << edited([](Json &j) {
        j["points"][0] = nullptr;
        j["points"][1] = "gemm";
        j["points"][2] = Json::array({ 1, Json::object() });
        j["points"][3] = Json { { "bytesFactor", 2 } };
    }) << false;
    QTest::newRow("bad points in two parts") << edited([](Json &j) {
        const Json point = j["points"][0];
        while (j["points"].size() < 4100)
            j["points"].push_back(point);
        j["points"][1]["point"]["flops"] = -1;
        j["points"][4098]["point"].erase("name");
        j["points"][4099]["bytesFactor"] = 0;
    }) << false;
    QTest::newRow("bad move and workload") << edited([](Json &j) {
        j["points"][0]["timeFactor"] = "fast";
        j["points"][3]["workload"]["kind"] = "conv";
    }) << false;
    QTest::newRow("bad point after a bad machine") << edited([](Json &j) {
        j["hardware"] = 3;
        j["points"][2]["point"]["flops"] = "many";
    }) << false;
    QTest::newRow("bad point and bad view") << edited([](Json &j) {
        j["points"][2]["point"]["seconds"] = -1;
        j["theme"] = "neon";
    }) << false;
    QTest::newRow("newer version") << edited([](Json &j) { j["version"] = 99; }) << false;
    QTest::newRow("truncated in the points") << text.substr(0, text.find("softmax")) << false;
    QTest::newRow("a number too large in a point") << replaced(
        edited([](Json &j) { j["points"][1]["point"]["flops"] = 12345; }), "12345", "1e999")
                                                   << false;
    QTest::newRow("2^64 flops") << edited([](Json &j) {
        j["points"][1]["point"]["flops"] = 18446744073709551615ULL;
    }) << true;
    const std::string named = edited([](Json &j) { j["points"][1]["point"]["name"] = "DEEP"; });
    QTest::newRow("nested deeper than the limit in a point")
        << replaced(named, "\"DEEP\"", std::string(600, '[') + std::string(600, ']')) << false;
    QTest::newRow("nested in a point")
        << replaced(named, "\"DEEP\"", std::string(100, '[') + std::string(100, ']')) << false;
}

void TestSessionStream::readsAsTheWholeTreeReader()
{
    QFETCH(std::string, text);
    QFETCH(bool, opens);
    const SessionReadResult whole = readSessionJsonWhole(text, "s.json");
    const SessionReadResult streamed = readSessionJson(text, "s.json");
    QCOMPARE(streamed.session.has_value(), opens);
    QCOMPARE(said(streamed), said(whole));
    std::string copy = text;
    QCOMPARE(said(readSessionJsonConsuming(std::move(copy), "s.json")), said(whole));
}

void TestSessionStream::streamsOnlyWhatItMay_data()
{
    using Outcome = session_json::ParsedSession::Outcome;
    QTest::addColumn<std::string>("text");
    QTest::addColumn<int>("outcome");
    QTest::addColumn<bool>("streamed");
    QTest::newRow("as written") << richText() << int(Outcome::Parsed) << true;
    QTest::newRow("version 1") << edited([](Json &j) { j["version"] = 1; }) << int(Outcome::Parsed)
                               << true;
    QTest::newRow("version 0") << edited([](Json &j) { j["version"] = 0; }) << int(Outcome::Parsed)
                               << false;
    QTest::newRow("newer version")
        << edited([](Json &j) { j["version"] = 3; }) << int(Outcome::Parsed) << false;
    QTest::newRow("version 2.0") << edited([](Json &j) { j["version"] = 2.0; })
                                 << int(Outcome::Parsed) << false;
    QTest::newRow("another format") << edited([](Json &j) { j["format"] = "ridgepoint-points"; })
                                    << int(Outcome::Parsed) << false;
    QTest::newRow("points before the version")
        << reordered({ "format", "points" }) << int(Outcome::Parsed) << false;
    QTest::newRow("points not a list")
        << edited([](Json &j) { j["points"] = Json::object(); }) << int(Outcome::Parsed) << false;
    const std::string text = richText();
    QTest::newRow("points repeated")
        << text.substr(0, text.rfind('}')) + ", \"points\": []}" << int(Outcome::Again) << false;
    QTest::newRow("invalid") << text.substr(0, text.size() / 2) << int(Outcome::Failed) << false;
}

void TestSessionStream::streamsOnlyWhatItMay()
{
    QFETCH(std::string, text);
    QFETCH(int, outcome);
    QFETCH(bool, streamed);
    std::vector<Diagnostic> diagnostics;
    session_json::PointEntries entries("s.json");
    const auto parsed = session_json::parseSession(text, "s.json", diagnostics, entries);
    QCOMPARE(int(parsed.outcome), outcome);
    QCOMPARE(parsed.streamed, streamed);
    if (streamed)
        QVERIFY(parsed.root["points"] == Json::array()); // the entries went to `entries`
}

QTEST_GUILESS_MAIN(TestSessionStream)
#include "tst_session_stream.moc"
