// `ridgepoint llm --render` pictures carry their session as `render`'s do (docs/FILES.md,
// "Sessions in exported pictures"): read back from the PNG or SVG, it holds the model's
// workloads with every parameter (model, phase, seq, batch, tp, ep, the experts), and `analyze`
// of the picture recomputes them to the totals `llm` prints; --no-embed leaves it out.
#include "tests/support/cli_run.h"

#include "core/session/session.h"
#include "widgets/document/sessionfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;

namespace {

using test::Run;

const QStringList kMixtral { "llm", "--hardware", "H100", "--model", "mixtral", "--phase", "decode",
    "--seq", "4096", "--batch", "8", "--tp", "2", "--ep", "4" };

const LlmWorkload &llmOf(const SessionPoint &point)
{
    return std::get<LlmWorkload>(point.workload->model);
}

bool close(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class TestCliLlmRender : public QObject
{
    Q_OBJECT

private slots:
    void embedsTheWorkloads_data();
    void embedsTheWorkloads();
    void embedsASweep();
    void leavesTheSessionOutWhenTold();
};

void TestCliLlmRender::embedsTheWorkloads_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << "png";
    QTest::newRow("svg") << "svg";
}

void TestCliLlmRender::embedsTheWorkloads()
{
    QFETCH(QString, suffix);
    QTemporaryDir dir;
    const QString picture = dir.filePath("mixtral." + suffix);
    const Run run = test::runCli(kMixtral + QStringList { "--render", picture });
    QVERIFY2(run.status == 0, run.err.constData());

    const SessionReadResult read = readSessionFile(picture);
    QVERIFY2(read.session, read.diagnostics.empty() ? "" : read.diagnostics[0].toString().c_str());
    const Session &s = *read.session;
    QVERIFY(s.hardware.name.starts_with("NVIDIA H100"));
    QVERIFY(s.points.size() > 10);
    bool whole = false;
    bool allToAll = false;
    for (const SessionPoint &p : s.points) {
        QVERIFY2(p.workload, p.point.name.c_str());
        const LlmWorkload &l = llmOf(p);
        QCOMPARE(l.model.name, std::string("Mixtral-8x7B"));
        QCOMPARE(l.model.experts, std::int64_t { 8 });
        QCOMPARE(l.model.expertsPerToken, std::int64_t { 2 });
        QCOMPARE(l.spec.phase, LlmPhase::Decode);
        QCOMPARE(l.spec.seq, std::int64_t { 4096 });
        QCOMPARE(l.spec.batch, std::int64_t { 8 });
        QCOMPARE(l.spec.tp, std::int64_t { 2 });
        QCOMPARE(l.spec.ep, std::int64_t { 4 });
        QCOMPARE(l.spec.pp, std::int64_t { 1 });
        whole = whole || l.operatorKind.empty();
        allToAll = allToAll || l.operatorKind == "EP all-to-all (dispatch + combine)";
    }
    QVERIFY(whole);
    QVERIFY(allToAll);

    // Reopened, the whole model is the point `llm` gives (the per-chip step with its
    // collectives), not a dense single-chip model.
    const Run json = test::runCli(kMixtral + QStringList { "--json" });
    QCOMPARE(json.status, 0);
    const QJsonObject total = QJsonDocument::fromJson(json.out).object()["total"].toObject();
    const Run analyzed = test::runCli({ "analyze", picture, "--format", "json" });
    QVERIFY2(analyzed.status == 0, analyzed.err.constData());
    const QJsonArray points = QJsonDocument::fromJson(analyzed.out).object()["points"].toArray();
    const auto it = std::find_if(points.begin(), points.end(),
        [&](const QJsonValue &p) { return p.toObject()["name"] == total["name"]; });
    QVERIFY2(it != points.end(), analyzed.out.constData());
    QVERIFY(total["flops"].toDouble() > 0.0);
    QVERIFY(close(it->toObject()["flops"].toDouble(), total["flops"].toDouble()));
    QVERIFY(close(it->toObject()["t_min"].toDouble(), total["t_min"].toDouble()));
}

void TestCliLlmRender::embedsASweep()
{
    QTemporaryDir dir;
    const QString picture = dir.filePath("sweep.png");
    const Run run = test::runCli({ "llm", "--hardware", "H100", "--model", "llama-2-7b", "--phase",
        "prefill", "--sweep", "seq=128:1024", "--pp", "2", "--render", picture });
    QVERIFY2(run.status == 0, run.err.constData());
    const SessionReadResult read = readSessionFile(picture);
    QVERIFY(read.session);
    std::vector<double> seqs;
    for (const SessionPoint &p : read.session->points) {
        QVERIFY(p.workload && p.workload->sweep);
        QCOMPARE(p.workload->sweep->parameter, std::string("seq"));
        QCOMPARE(double(llmOf(p).spec.seq), p.workload->sweep->value);
        QCOMPARE(llmOf(p).spec.phase, LlmPhase::Prefill);
        QCOMPARE(llmOf(p).spec.pp, std::int64_t { 2 });
        seqs.push_back(p.workload->sweep->value);
    }
    QCOMPARE(*std::min_element(seqs.begin(), seqs.end()), 128.0);
    QCOMPARE(*std::max_element(seqs.begin(), seqs.end()), 1024.0);
}

void TestCliLlmRender::leavesTheSessionOutWhenTold()
{
    QTemporaryDir dir;
    for (const QString suffix : { "png", "svg" }) {
        const QString picture = dir.filePath("bare." + suffix);
        const Run run = test::runCli(kMixtral + QStringList { "--render", picture, "--no-embed" });
        QVERIFY2(run.status == 0, run.err.constData());
        const SessionReadResult read = readSessionFile(picture);
        QVERIFY(!read.session);
        QVERIFY(!read.diagnostics.empty());
        QVERIFY2(QString::fromStdString(read.diagnostics[0].toString())
                     .contains("this picture has no Ridgepoint session in it"),
            read.diagnostics[0].toString().c_str());
    }
}

QTEST_GUILESS_MAIN(TestCliLlmRender)
#include "tst_cli_llm_render.moc"
