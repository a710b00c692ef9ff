// Session files: round trips of every part of a workspace, every error path with its path or
// line/column, the newer-version refusal and the migration of the pre-release version 0.
#include "core/io/formats/hardware_json.h"
#include "core/session/session.h"
#include "core/session/session_workspace.h"
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
    hw.aliases = { "TM" };
    hw.source = "tests";
    hw.compute.push_back({ "FP32 vector", Precision::FP32, "vector", 1e12, false, {}, true });
    hw.compute.push_back({ "INT8 matrix", Precision::INT8, "matrix", 4e12, false, {}, true });
    hw.compute.push_back({ "BF16 matrix", Precision::BF16, "matrix", 2e12, false, {}, true });
    hw.memory.push_back({ "HBM", MemoryLevel::HBM, 1e11, 0.9, true });
    hw.memory.push_back({ "ICI", MemoryLevel::ICI, 5e10, {}, true });
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

Session minimal()
{
    Session s;
    s.hardware = machine();
    s.points.push_back({ kernel("gemm", 1e12, 1e10, 2.0), 1.0, 1.0, std::nullopt });
    return s;
}

// The session as JSON with one edit applied (for the error table).
std::string edited(const std::function<void(Json &)> &edit)
{
    Json json = Json::parse(writeSessionJson(minimal()));
    edit(json);
    return json.dump(2);
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

private slots:
    void roundTrips_data();
    void roundTrips();
    void keepsEveryFieldOfAWorkload();
    void refusesBadSessions_data();
    void refusesBadSessions();
    void givesLineAndColumnOfSyntaxErrors();
    void refusesNewerVersionSayingSo();
    void migratesVersion0();
    void refusesVersion0ItCannotMigrate();
    void readsVersion0IntoAWorkspace();
    void warnsAboutUnknownKeys();
    void writesUpToAByteCap();
    void opensASessionFromBeforeProvenance();
};

void TestSession::roundTrips_data()
{
    QTest::addColumn<int>("variant");
    QTest::newRow("machine and one point") << 0;
    QTest::newRow("edited ceilings and compare machine") << 1;
    QTest::newRow("what-if moves") << 2;
    QTest::newRow("workloads, sweep and quantization mode") << 3;
    QTest::newRow("view range and theme") << 4;
    QTest::newRow("annotations and targets") << 5;
    QTest::newRow("baseline") << 6;
    QTest::newRow("points without a source") << 7;
    QTest::newRow("provenance, alternates and spec figures") << 8;
    QTest::newRow("a trace's baseline, matched by operator") << 9;
}

void TestSession::roundTrips()
{
    QFETCH(int, variant);
    Session s = minimal();
    switch (variant) {
    case 1:
        s.hardware.name = "Custom (from TM)";
        s.hardware.compute[0].peak = 1.5e12;
        s.hardware.memory[0].visible = false;
        s.compare = machine();
        s.compare->name = "Other";
        break;
    case 2:
        s.points[0].bytesFactor = 0.25;
        s.points[0].timeFactor = 0.5;
        break;
    case 3: {
        MatmulWorkload m;
        m.spec = MatmulSpec { 64, 4096, 8192, Precision::BF16, QuantMode::None };
        Workload w { m, "matmuls", SweepMembership { 2, "b", 64 } };
        s.points.push_back(
            { kernel("matmul b=64", 2.0 * 64 * 4096 * 8192, 7e7, 1e-3), 1.0, 1.0, w });
        s.quantMode = QuantMode::W8A16;
        s.lastSweepId = 2;
        break;
    }
    case 4:
        s.view = ViewRange { 0.01, 1e4, 1e8, 1e14 };
        s.theme = "dark";
        break;
    case 5:
        s.annotations.push_back({ "tiled in v2", "gemm", 0.0, 0.0 });
        s.annotations.push_back({ "free, \"quoted\"\nnewline", "", 3.5, 2.5e11 });
        s.targets.push_back({ "HBM", 0.6, "" });
        s.targets.push_back({ "FP32 vector", 0.8, "goal for Q3" });
        break;
    case 6:
        s.baseline = Baseline { "runs/old.csv", { kernel("gemm", 1e12, 1e10, 4.0) } };
        break;
    case 9:
        s.baseline
            = Baseline { "a100.json.gz", { kernel("gemm", 1e12, 1e10, 4.0) }, MatchBy::Operator };
        break;
    case 7:
        // A point made in the window has no file behind it, and keeps none.
        s.points[0].point.source = {};
        s.baseline = Baseline { "runs/old.csv", { kernel("gemm", 1e12, 1e10, 4.0) } };
        s.baseline->points[0].source = {};
        break;
    case 8: {
        Provenance spec;
        spec.basis = Basis::Spec;
        spec.source = "datasheet, table 1";
        spec.url = "https://example.com/a.pdf";
        spec.accessed = "2026-11-26";
        spec.clock = "boost";
        spec.clockMHz = 1410.0;
        spec.scope = "package";
        spec.notes = "dense";
        Provenance measured;
        measured.basis = Basis::Measured;
        measured.tool = "stream";
        measured.date = "2026-11-20";
        measured.host = "node1";
        s.hardware.compute[0].provenance = spec;
        s.hardware.compute[1].sparse = true;
        s.hardware.memory[0].provenance = spec;
        s.hardware.memory[0].alternate = AlternateFigure { 0.8e11, measured };
        s.hardware.memory[1].provenance.basis = Basis::Derived;
        s.hardware.memory[1].provenance.formula = "4 links x 12.5 GB/s";
        s.compare = s.hardware;
        s.compare->name = "Other";
        s.figures = FigureChoice::Spec;
        break;
    }
    default:
        break;
    }
    const std::string text = writeSessionJson(s);
    const auto result = readSessionJson(text, "s.json");
    QVERIFY2(result.session, qPrintable(test::joined(result.diagnostics)));
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.version, kSessionVersion);
    // Written again, it is the same document: nothing was lost or changed on the way.
    QCOMPARE(writeSessionJson(*result.session), text);

    const Session &r = *result.session;
    QCOMPARE(r.hardware.name, s.hardware.name);
    QCOMPARE(r.hardware.compute[0].peak, s.hardware.compute[0].peak);
    QCOMPARE(r.hardware.memory[0].visible, s.hardware.memory[0].visible);
    QCOMPARE(r.compare.has_value(), s.compare.has_value());
    QCOMPARE(r.points.size(), s.points.size());
    QCOMPARE(r.points[0].point.source.file, s.points[0].point.source.file);
    QCOMPARE(r.points[0].point.source.line, s.points[0].point.source.line);
    QCOMPARE(r.points[0].bytesFactor, s.points[0].bytesFactor);
    QCOMPARE(r.points[0].timeFactor, s.points[0].timeFactor);
    QCOMPARE(r.quantMode, s.quantMode);
    QCOMPARE(r.lastSweepId, s.lastSweepId);
    QCOMPARE(r.view, s.view);
    QCOMPARE(r.theme, s.theme);
    QCOMPARE(r.figures, s.figures);
    for (std::size_t i = 0; i < s.hardware.compute.size(); ++i) {
        QVERIFY(r.hardware.compute[i].provenance == s.hardware.compute[i].provenance);
        QCOMPARE(r.hardware.compute[i].sparse, s.hardware.compute[i].sparse);
    }
    for (std::size_t i = 0; i < s.hardware.memory.size(); ++i) {
        QVERIFY(r.hardware.memory[i].provenance == s.hardware.memory[i].provenance);
        QVERIFY(r.hardware.memory[i].alternate == s.hardware.memory[i].alternate);
    }
    if (s.compare)
        QVERIFY(r.compare->memory[0].alternate == s.compare->memory[0].alternate);
    QCOMPARE(r.annotations, s.annotations);
    QCOMPARE(r.targets, s.targets);
    QCOMPARE(r.baseline.has_value(), s.baseline.has_value());
    if (s.baseline) {
        QCOMPARE(r.baseline->file, s.baseline->file);
        QCOMPARE(r.baseline->match, s.baseline->match);
        QCOMPARE(r.baseline->points.size(), std::size_t { 1 });
        QCOMPARE(*r.baseline->points[0].seconds, 4.0);
    }
}

void TestSession::keepsEveryFieldOfAWorkload()
{
    Session s = minimal();
    MatmulWorkload m;
    m.spec = MatmulSpec { 8, 1024, 2048, Precision::FP32, QuantMode::None };
    m.tile = TileSpec { 64, 32, 128 };
    m.shards = ShardSpec { 4, "ICI", 2.5e10 };
    s.points.push_back({ kernel("m", 1e9, 1e6, 1e-3), 1.0, 1.0, Workload { m, "g", {} } });
    LlmWorkload l;
    l.model.name = "Tiny";
    l.model.aliases = { "t" };
    l.model.hiddenSize = 512;
    l.model.layers = 4;
    l.model.heads = 8;
    l.model.kvHeads = 2;
    l.model.headDim = 64;
    l.model.ffnSize = 1408;
    l.model.vocabSize = 32000;
    l.model.gatedFfn = false;
    l.spec = LlmSpec { LlmPhase::Prefill, 128, 4, Precision::INT8, Precision::BF16, Precision::FP8,
        true };
    l.operatorKind = "QKV projection";
    s.points.push_back({ kernel("l", 1e9, 1e6, 1e-3), 1.0, 1.0,
        Workload { l, "", SweepMembership { 1, "seq", 128 } } });

    const auto result = readSessionJson(writeSessionJson(s), "s.json");
    QVERIFY2(result.session, qPrintable(test::joined(result.diagnostics)));
    const auto &rm = std::get<MatmulWorkload>(result.session->points[1].workload->model);
    QCOMPARE(rm.spec.b, std::int64_t { 8 });
    QCOMPARE(rm.spec.f, std::int64_t { 2048 });
    QCOMPARE(rm.spec.dtype, Precision::FP32);
    QCOMPARE(rm.tile->bk, std::int64_t { 32 });
    QCOMPARE(rm.shards->chips, std::int64_t { 4 });
    QCOMPARE(rm.shards->network, std::string("ICI"));
    QCOMPARE(*rm.shards->networkBandwidth, 2.5e10);
    QCOMPARE(result.session->points[1].workload->group, std::string("g"));
    const Workload &rw = *result.session->points[2].workload;
    const auto &rl = std::get<LlmWorkload>(rw.model);
    QCOMPARE(rl.model.kvHeads, std::int64_t { 2 });
    QCOMPARE(rl.model.gatedFfn, false);
    QCOMPARE(rl.model.aliases, std::vector<std::string> { "t" });
    QCOMPARE(rl.spec.phase, LlmPhase::Prefill);
    QCOMPARE(rl.spec.kv, Precision::FP8);
    QCOMPARE(rl.spec.fusedAttention, true);
    QCOMPARE(rl.operatorKind, std::string("QKV projection"));
    QCOMPARE(rw.sweep->parameter, std::string("seq"));
    QCOMPARE(rw.sweep->value, 128.0);
}

void TestSession::refusesBadSessions_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object") << std::string("[1, 2]")
                                   << "s.json: format: not a Ridgepoint session (expected "
                                      "{\"format\": \"ridgepoint-session\", \"version\": 2, ...})";
    QTest::newRow("a points file")
        << std::string(R"({"format": "ridgepoint-points", "version": 1, "points": []})")
        << "s.json: format: not a Ridgepoint session (expected {\"format\": "
           "\"ridgepoint-session\", \"version\": 2, ...})";
    QTest::newRow("version missing") << edited([](Json &j) { j.erase("version"); })
                                     << "s.json: version: expected a non-negative integer";
    QTest::newRow("version a string") << edited([](Json &j) { j["version"] = "1"; })
                                      << "s.json: version: expected a non-negative integer";
    QTest::newRow("figures unknown") << edited([](Json &j) { j["figures"] = "derived"; })
                                     << "s.json: figures: unknown choice \"derived\" (expected "
                                        "measured or spec)";
    QTest::newRow("hardware with a bad basis") << edited([](Json &j) {
        j["hardware"]["compute"][0]["provenance"] = { { "basis", "x" } };
    }) << "hardware: machine (Test machine).compute[0].provenance.basis: unknown basis \"x\"";
    QTest::newRow("hardware missing") << edited([](Json &j) { j.erase("hardware"); })
                                      << "s.json: hardware: missing (expected the machine)";
    QTest::newRow("hardware not an object") << edited([](Json &j) { j["hardware"] = 3; })
                                            << "s.json: hardware: expected a machine object";
    QTest::newRow("points not a list")
        << edited([](Json &j) { j["points"] = "x"; }) << "s.json: points: expected a list";
    QTest::newRow("point entry without point") << edited([](Json &j) {
        j["points"][0] = Json { { "bytesFactor", 2 } };
    }) << "s.json: points[0]: expected {\"point\": {...}, ...}";
    QTest::newRow("negative flops")
        << edited([](Json &j) { j["points"][0]["point"]["flops"] = -1; })
        << "s.json: points[0].point.flops";
    // The session reader hands the points reader 4096 entries at a time: an entry of a later
    // part keeps its own index in the message.
    QTest::newRow("negative flops past the first part") << edited([](Json &j) {
        const Json point = j["points"][0];
        while (j["points"].size() < 4100)
            j["points"].push_back(point);
        j["points"][4097]["point"]["flops"] = -1;
    }) << "s.json: points[4097].point.flops";
    QTest::newRow("zero bytes factor")
        << edited([](Json &j) { j["points"][0]["bytesFactor"] = 0; })
        << "s.json: points[0].bytesFactor: expected a positive finite number, found 0";
    QTest::newRow("unknown quantization")
        << edited([](Json &j) { j["quantization"] = "int3"; })
        << "s.json: quantization: unknown mode \"int3\" (expected none, int8 (or w8a8), w8a16 or "
           "w4a16)";
    QTest::newRow("view upside down") << edited([](Json &j) {
        j["view"] = { { "xLower", 10 }, { "xUpper", 1 }, { "yLower", 1 }, { "yUpper", 2 } };
    }) << "s.json: view: expected lower < upper on both axes";
    QTest::newRow("view negative") << edited([](Json &j) {
        j["view"] = { { "xLower", -1 }, { "xUpper", 1 }, { "yLower", 1 }, { "yUpper", 2 } };
    }) << "s.json: view.xLower: expected a positive finite number, found -1";
    QTest::newRow("unknown theme") << edited([](Json &j) { j["theme"] = "neon"; })
                                   << "s.json: theme: unknown theme \"neon\" (expected light, "
                                      "dark or print)";
    QTest::newRow("annotation on a missing point") << edited([](Json &j) {
        j["annotations"] = { { { "text", "a" }, { "point", "fft" } } };
    }) << "s.json: annotations[0].point: no point named \"fft\"";
    QTest::newRow("annotation without text") << edited([](Json &j) {
        j["annotations"] = { { { "x", 1 }, { "y", 2 } } };
    }) << "s.json: annotations[0].text: missing (expected a string)";
    QTest::newRow("target on an unknown roof") << edited([](Json &j) {
        j["targets"] = { { { "ceiling", "L9" }, { "fraction", 0.5 } } };
    }) << "s.json: targets[0].ceiling: \"L9\" is not a ceiling of Test machine";
    QTest::newRow("target above its roof") << edited([](Json &j) {
        j["targets"] = { { { "ceiling", "HBM" }, { "fraction", 1.5 } } };
    }) << "s.json: targets[0].fraction: expected a fraction in (0, 1], found 1.5";
    QTest::newRow("unknown workload kind") << edited([](Json &j) {
        j["points"][0]["workload"] = { { "kind", "conv" } };
    }) << "s.json: points[0].workload.kind: unknown workload \"conv\" (expected matmul or llm)";
    QTest::newRow("matmul without b") << edited([](Json &j) {
        j["points"][0]["workload"] = { { "kind", "matmul" }, { "d", 2 }, { "f", 2 } };
    }) << "s.json: points[0].workload.b: missing (expected a positive integer)";
    // Between 2^63 and 2^63 + 1024 a count equalled INT64_MAX as a double, passed, and wrapped
    // to a negative number; refused now with the number as written.
    for (const std::uint64_t count : { 9223372036854775808ULL, 9223372036854775809ULL,
             9223372036854776832ULL, 18446744073709551615ULL }) {
        const std::string written = std::to_string(count);
        QTest::newRow(("matmul b = " + written).c_str())
            << edited([count](Json &j) {
                   j["points"][0]["workload"]
                       = { { "kind", "matmul" }, { "b", count }, { "d", 2 }, { "f", 2 } };
               })
            << QString::fromStdString("s.json: points[0].workload.b: expected a positive integer, "
                                      "found "
                   + written);
    }
    QTest::newRow("tile bm = 2^63 + 1")
        << edited([](Json &j) {
               j["points"][0]["workload"] = { { "kind", "matmul" }, { "b", 2 }, { "d", 2 },
                   { "f", 2 },
                   { "tile", { { "bm", 9223372036854775809ULL }, { "bk", 1 }, { "bn", 1 } } } };
           })
        << "s.json: points[0].workload.tile.bm: expected a positive integer, found "
           "9223372036854775809";
    QTest::newRow("llm with unknown phase")
        << edited([](Json &j) {
               j["points"][0]["workload"] = { { "kind", "llm" },
                   { "model",
                       { { "name", "m" }, { "hiddenSize", 8 }, { "layers", 1 }, { "heads", 1 },
                           { "kvHeads", 1 }, { "headDim", 8 }, { "ffnSize", 8 },
                           { "vocabSize", 8 } } },
                   { "phase", "train" }, { "seq", 1 }, { "batch", 1 }, { "weights", "bf16" },
                   { "activations", "bf16" }, { "kv", "bf16" } };
           })
        << "s.json: points[0].workload.phase: unknown phase \"train\" (expected prefill or "
           "decode)";
    QTest::newRow("baseline without points") << edited([](Json &j) {
        j["baseline"] = { { "file", "x" } };
    }) << "s.json: baseline: expected {\"file\": ..., \"points\": [...]}";
    QTest::newRow("baseline matched by something else") << edited([](Json &j) {
        j["baseline"] = { { "file", "x" }, { "match", "kernel" }, { "points", Json::array() } };
    }) << "s.json: baseline.match: expected \"name\" or \"operator\"";
}

void TestSession::refusesBadSessions()
{
    QFETCH(std::string, text);
    QFETCH(QString, message);
    const auto result = readSessionJson(text, "s.json");
    QVERIFY(!result.session);
    QVERIFY(hasErrors(result.diagnostics));
    const QString all = test::joined(result.diagnostics);
    QVERIFY2(all.contains(message), qPrintable(all));
}

void TestSession::givesLineAndColumnOfSyntaxErrors()
{
    const std::string text = "{\n  \"format\": \"ridgepoint-session\",\n  \"version\": 1,,\n}";
    const auto result = readSessionJson(text, "s.json");
    QVERIFY(!result.session);
    QCOMPARE(result.diagnostics.size(), std::size_t { 1 });
    QCOMPARE(result.diagnostics[0].line, 3);
    QCOMPARE(result.diagnostics[0].column, 16);
    QVERIFY2(QString::fromStdString(result.diagnostics[0].toString())
                 .startsWith("s.json:3:16: invalid JSON: "),
        qPrintable(test::joined(result.diagnostics)));
}

void TestSession::refusesNewerVersionSayingSo()
{
    const auto result = readSessionJson(edited([](Json &j) { j["version"] = 7; }), "future.json");
    QVERIFY(!result.session);
    QCOMPARE(test::joined(result.diagnostics),
        QString("future.json: version: 7 is newer than this Ridgepoint reads (2): the session was "
                "written by a newer Ridgepoint; update Ridgepoint to open it"));
}

void TestSession::migratesVersion0()
{
    // The pre-release layout (docs/FILES.md): "machine", "kernels", moves beside them.
    Json v0;
    v0["format"] = "ridgepoint-session";
    v0["version"] = 0;
    v0["machine"] = Json::parse(writeHardwareJson(machine()));
    v0["kernels"] = Json::array(
        { { { "name", "a" }, { "flops", 1e9 }, { "bytes", 1e8 }, { "seconds", 0.01 } },
            { { "name", "b" }, { "flops", 2e9 }, { "bytes", 1e9 }, { "seconds", 0.1 } } });
    v0["whatIf"] = Json::array({ { { "kernel", 1 }, { "bytes", 0.5 }, { "time", 0.25 } } });
    v0["theme"] = "print";
    const auto result = readSessionJson(v0.dump(), "old.json");
    QVERIFY2(result.session, qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.version, 0);
    const Session &s = *result.session;
    QCOMPARE(s.hardware.name, std::string("Test machine"));
    QCOMPARE(s.points.size(), std::size_t { 2 });
    QCOMPARE(s.points[0].point.name, std::string("a"));
    QCOMPARE(s.points[0].bytesFactor, 1.0);
    QCOMPARE(s.points[1].bytesFactor, 0.5);
    QCOMPARE(s.points[1].timeFactor, 0.25);
    QCOMPARE(s.theme, std::string("print"));
    // Saved again it is a file of the current version.
    QVERIFY(writeSessionJson(s).find("\"version\": " + std::to_string(kSessionVersion))
        != std::string::npos);
}

// The same file read straight into a Workspace: migrated, its moves applied to the points, the
// window's theme handed back beside it, and written again as the session it holds.
void TestSession::readsVersion0IntoAWorkspace()
{
    Json v0;
    v0["format"] = "ridgepoint-session";
    v0["version"] = 0;
    v0["machine"] = Json::parse(writeHardwareJson(machine()));
    v0["kernels"] = Json::array(
        { { { "name", "a" }, { "flops", 1e9 }, { "bytes", 1e8 }, { "seconds", 0.01 } },
            { { "name", "b" }, { "flops", 2e9 }, { "bytes", 1e9 }, { "seconds", 0.1 } } });
    v0["whatIf"] = Json::array({ { { "kernel", 1 }, { "bytes", 0.5 }, { "time", 0.25 } } });
    v0["theme"] = "print";
    Workspace workspace;
    const auto result = readSessionJson(v0.dump(), "old.json", workspace);
    QVERIFY2(result.loaded, qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.version, 0);
    QCOMPARE(result.theme, std::string("print"));
    QVERIFY(!result.view);
    QCOMPARE(workspace.hardware().name, std::string("Test machine"));
    QCOMPARE(workspace.pointCount(), std::size_t { 2 });
    QCOMPARE(workspace.measuredPoint(1).bytes.front().bytes, 1e9);
    QCOMPARE(workspace.point(1).bytes.front().bytes, 5e8);
    QCOMPARE(*workspace.point(1).seconds, 0.025);
    // 2e9 FLOP over 5e8 B on HBM: I = 4 FLOP/B, under the 1e11 B/s roof 4e11 FLOP/s.
    QCOMPARE(workspace.analysis(1)->levels.front().intensity, 4.0);
    QCOMPARE(workspace.analysis(1)->attainable, 4e11);
    const auto session = readSessionJson(v0.dump(), "old.json").session;
    QVERIFY(session);
    QCOMPARE(writeSessionJson(workspace, std::nullopt, "print"), writeSessionJson(*session));
}

void TestSession::refusesVersion0ItCannotMigrate()
{
    Json v0 { { "format", "ridgepoint-session" }, { "version", 0 },
        { "machine", Json::parse(writeHardwareJson(machine())) },
        { "kernels", Json::array({ { { "name", "a" }, { "flops", 1 }, { "bytes", 1 } } }) },
        { "whatIf", Json::array({ { { "kernel", 4 }, { "bytes", 0.5 } } }) } };
    const auto result = readSessionJson(v0.dump(), "old.json");
    QVERIFY(!result.session);
    QCOMPARE(test::joined(result.diagnostics),
        QString("old.json: version 0: cannot migrate: whatIf[0].kernel: no kernel 4"));
}

// The keys a session and a point entry may have, as the unknown-key warning lists them.
constexpr const char *kTopKeys = "format, version, hardware, compare, points, quantization, "
                                 "lastSweepId, view, theme, pointsMode, dotSize, figures, roofs, "
                                 "annotations, targets, baseline";
constexpr const char *kPointKeys = "point, bytesFactor, timeFactor, workload";

void TestSession::warnsAboutUnknownKeys()
{
    const auto result = readSessionJson(edited([](Json &j) {
        j["colour"] = "red";
        j["points"][0]["byteFactor"] = 2;
    }),
        "s.json");
    QVERIFY2(result.session, qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.diagnostics.size(), std::size_t { 2 });
    QCOMPARE(result.diagnostics[0].severity, Severity::Warning);
    QCOMPARE(test::joined(result.diagnostics),
        QString("s.json: warning: unknown key \"colour\" ignored (expected one of %1)\n"
                "s.json: warning: points[0]: unknown key \"byteFactor\" ignored (expected one "
                "of %2)")
            .arg(kTopKeys, kPointKeys));
}

// A session embedded in a picture has a cap (issue 4): below it the text is the usual one, above
// it there is none — also when the cap is passed by the points alone, which is decided without
// writing them.
void TestSession::writesUpToAByteCap()
{
    Session s = minimal();
    for (int i = 0; i < 99; ++i)
        s.points.push_back(
            { kernel("k" + std::to_string(i), 1e9, 1e8, 0.1), 1.0, 1.0, std::nullopt });
    const std::string full = writeSessionJson(s);
    QCOMPARE(writeSessionJson(s, full.size()), std::optional<std::string>(full));
    QCOMPARE(writeSessionJson(s, full.size() - 1), std::optional<std::string>());
    // 100 points in 1000 bytes: fewer than ten bytes a point cannot be.
    QVERIFY(maxSessionPoints(1000) < 100);
    QCOMPARE(writeSessionJson(s, 1000), std::optional<std::string>());
    // The bound never refuses what would fit: a session of the shortest points, at its size.
    Session shortest;
    shortest.points.resize(50);
    const std::string text = writeSessionJson(shortest);
    QCOMPARE(writeSessionJson(shortest, text.size()), std::optional<std::string>(text));
}

// A session written before provenance: its machine is hardware version 1 with no provenance and
// there is no "figures". It opens; its ceilings take the machine's source, basis unstated, and
// the analysis uses measured figures (the default).
void TestSession::opensASessionFromBeforeProvenance()
{
    const std::string old = edited([](Json &j) {
        j.erase("figures");
        j["hardware"]["version"] = 1;
        for (auto &c : j["hardware"]["compute"]) {
            c.erase("provenance");
            c.erase("sparsity");
        }
        for (auto &m : j["hardware"]["memory"])
            m.erase("provenance");
    });
    QVERIFY(old.find("provenance") == std::string::npos);
    const auto result = readSessionJson(old, "old.json");
    QVERIFY2(result.session, qPrintable(test::joined(result.diagnostics)));
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    const Session &s = *result.session;
    QCOMPARE(s.figures, FigureChoice::Measured);
    QCOMPARE(s.hardware.compute.size(), std::size_t { 3 });
    for (const auto &c : s.hardware.compute) {
        QCOMPARE(c.provenance.basis, Basis::Unstated);
        QCOMPARE(c.provenance.source, std::string("tests")); // machine().source
    }
    QCOMPARE(s.hardware.memory[1].provenance.source, std::string("tests"));
}

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
