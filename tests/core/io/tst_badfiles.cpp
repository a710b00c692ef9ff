// The corpus of broken files under tests/data/bad/: each file is named after its defect and must
// produce exactly the message listed here, through the same entry points the CLI and the window
// use. Every file in the folder must be listed, so no fixture goes unused.
#include "core/io/file_io.h"
#include "core/io/input_check.h"
#include "core/io/picture_session.h"
#include "core/io/readers.h"
#include "core/session/session.h"
#include "tests/support/testpaths.h"

#include <QDir>
#include <QSet>
#include <QTest>

using namespace ridgepoint;

namespace {

const QString kBad = test::sourcePath(QStringLiteral("tests/data/bad/"));

struct Expectation {
    const char *file;
    bool hardware; // read as a hardware file (else as a points file)
    const char *message;
};

// clang-format off
const Expectation kCorpus[] = {
    {"empty.csv", false, "empty.csv: the file is empty (expected a header such as name,flops,bytes,seconds)"},
    {"header_only.csv", false, "header_only.csv:1: the header has no data rows after it"},
    {"truncated_hardware.json", true, "truncated_hardware.json:5:1: invalid JSON: syntax error while parsing array - unexpected end of input; expected ']'"},
    {"wrong_types_hardware.json", true, "wrong_types_hardware.json: machine (GPU).compute[0].peak: expected a number or a unit string, found boolean"},
    {"binary_garbage.bin", false, "binary_garbage.bin:1:8: binary data (a NUL byte) where text was expected: is this the right file?"},
    {"latin1_header.csv", false, "latin1_header.csv:1:24: not valid UTF-8 (byte 0xB5): save the file as UTF-8"},
    {"unterminated_quote.csv", false, "unterminated_quote.csv:2:1: unterminated quoted field (expected a closing \")"},
    {"duplicate_columns.csv", false, "duplicate_columns.csv:1:26: column \"seconds\" repeats column \"seconds\" (both give seconds)"},
    {"wrong_types_points.json", false, "wrong_types_points.json: points[0].flops: \"lots\" is not an operation count: it does not start with a number (expected a number with an optional unit in FLOP, e.g. \"2.5 GFLOP\" or \"2.5e9\")"},
    {"utf16_odd_length.csv", false, "utf16_odd_length.csv: the file says it is UTF-16LE but is not valid UTF-16 (expected text saved as UTF-8 or UTF-16)"},
    {"csv_bad_thousands_grouping.csv", false, "csv_bad_thousands_grouping.csv:2:6: column \"flops\": \"12,34\" is not an operation count: a comma inside a number is ambiguous (decimal comma or thousands separator); write 1234.5 (expected a number with an optional unit in FLOP, e.g. \"2.5 GFLOP\" or \"2.5e9\")"},
    {"csv_intensity_without_performance.csv", false, "csv_intensity_without_performance.csv:2:8: an intensity needs a FLOP count or a performance in the same row"},
    {"csv_ragged_row.csv", false, "csv_ragged_row.csv:3: expected 4 fields, found 2"},
    {"csv_thousands_group_of_four.csv", false, "csv_thousands_group_of_four.csv:2:7: column \"bytes\": \"1,0000\" is not a byte count: a comma inside a number is ambiguous (decimal comma or thousands separator); write 1234.5 (expected a number with an optional unit in B, e.g. \"512 MB\", \"1 GiB\" or \"5.12e8\")"},
    {"ert_trailing_comma.json", true, "ert_trailing_comma.json:4:43: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"},
    {"likwid_flops_group_only.csv", false, "likwid_flops_group_only.csv:3: region \"r1\": no memory metrics (expected a MEM or MEM_DP group with \"Memory data volume [GBytes]\" or \"Operational intensity\")"},
    {"ncu_decimal_comma_value.csv", false, "ncu_decimal_comma_value.csv:2:137: metric \"dram__bytes.sum\": \"65,77\" is not a number: a comma that does not group thousands is ambiguous (decimal comma?)"},
    {"ncu_raw_without_units_row.csv", false, "ncu_raw_without_units_row.csv:2:1: the line after the Nsight Compute raw-page header is not its units row (expected empty units under \"ID\", \"Kernel Name\", ...)"},
    {"ncu_rule_rows_only.csv", false, "ncu_rule_rows_only.csv:1: only rule rows (advice text) and no metric values after the header (expected rows with a Metric Name)"},
    {"ncu_errors_only.csv", false, "ncu_errors_only.csv:1: ncu wrote no table, only its own messages: \"==ERROR== Option '--section .*SpeedOfLight.*' did not match any section.\" (expected a header line starting \"ID\",... or \"Process ID\",... after them)"},
    {"ncu_summary_zero_invocations.csv", false, "ncu_summary_zero_invocations.csv:2:166: column \"Invocations\": \"0\" is not a number of launches (expected a whole number, 1 or more)"},
    {"ncu_raw_page_without_peaks.csv", true, "ncu_raw_page_without_peaks.csv:2: no peak metrics in this Nsight Compute file: it gives points, not ceilings (expected sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained with sm__cycles_elapsed.avg.per_second and dram__bytes.sum.peak_sustained with dram__cycles_elapsed.avg.per_second, or the SpeedOfLight_RooflineChart section export)"},
    {"advisor_roofs_without_rows.csv", true, "advisor_roofs_without_rows.csv:2: no roofs after the header (expected rows of Name,Bandwidth,Type,Device)"},
    {"ncu_unknown_unit.csv", false, "ncu_unknown_unit.csv:2:136: metric \"dram__bytes.sum\": unknown unit \"Mbit\" (expected an ncu unit such as byte, Mbyte, ns, usecond, Ghz)"},
    // Found by fuzzing (tests/fuzz, docs/RELIABILITY.md): each crashed or let a bad point through.
    {"advisor_truncated_row.csv", false, "advisor_truncated_row.csv:3: expected 4 fields, found 1"},
    {"hardware_number_overflow.json", true, "hardware_number_overflow.json:2:60: invalid JSON: number overflow parsing '1e999' (expected a number a double can hold, at most about 1.8e308)"},
    {"json_nested_too_deep.json", true, "json_nested_too_deep.json:1:513: invalid JSON: nested deeper than 512 levels (expected a Ridgepoint, ERT or hardware file)"},
    {"ncu_empty_kernel_name.csv", false, "ncu_empty_kernel_name.csv:2: launch 0: empty kernel name (expected the Kernel Name column)"},
    {"ncu_overflowing_value.csv", false, "ncu_overflowing_value.csv:2:137: metric \"dram__bytes.sum\": \"1e300\" Tbyte is out of range (expected a finite value)"},
    {"points_json_zero_bytes.json", false, "points_json_zero_bytes.json: points[0].bytes[0].bytes: must be greater than zero (a log-log roofline cannot show it)"},
    {"unknown_shape.txt", false, "unknown_shape.txt: not a file Ridgepoint can read; tried points CSV (no header row naming a kernel column and a flops, bytes or intensity column), points JSON (no \"format\": \"ridgepoint-points\"), Nsight Compute CSV (no \"ID\",...,\"Kernel Name\" or \"Process ID\",...,\"Invocations\" header), rocprof-compute pmc_perf.csv (no Dispatch_ID,Kernel_Name header), Intel Advisor survey (no \"ID\",\"Function Call Sites and Loops\" header), likwid-perfctr -O (no STRUCT,Info / TABLE, lines), NERSC roofline text (no memroofs, AI_<level> and FLOPS lines), mohamed/roofline apps.csv (no \"# name, intensity, ...\" header), ncu-like metric CSV (no ID,Kernel Name,Host Name,Metric Name,Metric Value header), PyTorch profiler trace (no \"traceEvents\" with \"deviceProperties\" or \"schemaVersion\"), Vidur per-operator CSV (no time_stats.<operator>...,num_tokens,...num_tensor_parallel_workers header)"},
    // The ad-hoc formats of roofline scripts (docs/FORMATS.md §2, §6).
    {"nersc_label_count_mismatch.txt", false, "nersc_label_count_mismatch.txt:5:14: labels has 2 values for 3 FLOPS values (expected one per kernel)"},
    {"nersc_extra_intensity.txt", false, "nersc_extra_intensity.txt:3:21: AI_HBM has 4 values for 3 FLOPS values (expected one per kernel)"},
    {"nersc_empty_flops.txt", false, "nersc_empty_flops.txt:2:6: FLOPS has no values (expected one GFLOP/s value per kernel)"},
    {"nersc_roofs_only_as_points.txt", false, "nersc_roofs_only_as_points.txt: this NERSC roofline file has only roofs (memroofs, comproofs): it gives ceilings, not points (open it as the machine instead)"},
    {"nersc_bad_roof_value.txt", true, "nersc_bad_roof_value.txt:1:16: memroofs: \"fast\" is not a positive number (expected GB/s)"},
    {"ert_sum_precision_twice.txt", true, "ert_sum_precision_twice.txt:2:9: \"FP64 GFLOPs\" gives the ceiling \"FP64 (empirical)\", which line 1 (\"GFLOPs\") gives too (expected one result line per precision and memory level)"},
    {"ert_sum_bad_line.txt", true, "ert_sum_bad_line.txt:3:4: \"L1 310.25\" is not a result line (expected \"<number> <label>\" such as \"176.44 L1\" or \"11.03 GFLOPs\", before META_DATA)"},
    {"peaks_negative_bandwidth.csv", true, "peaks_negative_bandwidth.csv:2:28: column \"peak_bandwidth\": \"-6.5e11\" is not a positive number (expected B/s)"},
    {"hw_db_zero_bandwidth.csv", true, "hw_db_zero_bandwidth.csv:1:25: column \"peak GB/s\": \"0\" is not a positive number (expected GB/s)"},
    {"apps_implementation_without_performance.csv", false, "apps_implementation_without_performance.csv:3:31: expected a name, an intensity, then pairs of implementation name and performance (GFLOP/s), found 5 fields"},
    // Finite but extreme values outside the accepted ranges (docs/MODEL.md §10).
    {"csv_flops_beyond_range.csv", false, "csv_flops_beyond_range.csv:2: the FLOP count 1e+308 FLOP is outside the accepted range [1e-06, 1e+30] FLOP"},
    {"csv_denormal_counts.csv", false, "csv_denormal_counts.csv:2: the FLOP count 4.94066e-324 FLOP is outside the accepted range [1e-06, 1e+30] FLOP"},
    {"csv_time_below_range.csv", false, "csv_time_below_range.csv:2: the time 1e-20 s is outside the accepted range [1e-15, 1e+09] s"},
    {"hardware_tiny_peak.json", true, "hardware_tiny_peak.json: machine (Almost no machine): compute ceiling \"FP32\": peak 1e-300 FLOP/s is outside the accepted range [1, 1e+21] FLOP/s"},
    {"hardware_tiny_bandwidth.json", true, "hardware_tiny_bandwidth.json: machine (A straw for memory): memory ceiling \"DRAM\": bandwidth 1e-300 B/s is outside the accepted range [1, 1e+21] B/s"},
    {"metric_values_without_ai.csv", false, "metric_values_without_ai.csv:2: ID 0: no AI metric (expected FLOPS in FLOP/s and AI in FLOP/B for each ID)"},
};

// Sessions, read as the window and the CLI read them (widgets/document/sessionfile.cpp): a
// picture's embedded session, or the file itself. Generated bombs and 80,000-level documents
// are in tst_boundedreading; these stay small.
const Expectation kSessionCorpus[] = {
    {"session_nested_too_deep.json", false, "session_nested_too_deep.json:1:589: invalid JSON: nested deeper than 512 levels (expected a Ridgepoint, ERT or hardware file)"},
    {"png_session_nested_too_deep.png", false, "png_session_nested_too_deep.png:1:589: invalid JSON: nested deeper than 512 levels (expected a Ridgepoint, ERT or hardware file)"},
    {"png_chunk_length_past_end.png", false, "png_chunk_length_past_end.png: PNG chunk zTXt at byte 33 claims 2147483647 bytes, but only 20 follow (expected a chunk that ends inside the file)"},
    {"pdf_stream_length_past_end.pdf", false, "pdf_stream_length_past_end.pdf: PDF stream of the session claims /Length 1073741824 bytes, but only 27 follow (expected a stream that ends inside the file)"},
    {"pdf_stream_length_negative.pdf", false, "pdf_stream_length_negative.pdf: PDF stream of the session has /Length \"-5\" (expected a number of bytes, 0 or more)"},
    {"pdf_stream_length_exponent.pdf", false, "pdf_stream_length_exponent.pdf: PDF stream of the session has /Length \"1e15\" (expected a number of bytes, 0 or more)"},
    {"pdf_stream_length_1e15.pdf", false, "pdf_stream_length_1e15.pdf: PDF stream of the session claims /Length 1000000000000000 bytes, but only 27 follow (expected a stream that ends inside the file)"},
};
// clang-format on

std::string sessionError(const std::string &text, const std::string &name)
{
    if (pictureKind(text) != PictureKind::None) {
        const auto json = sessionFromPictureBytes(text, name);
        if (!json)
            return json.error();
        return sessionError(*json, name);
    }
    const SessionReadResult result = readSessionJson(text, name);
    return result.diagnostics.empty() ? "(no error)" : result.diagnostics.front().toString();
}

std::string firstError(const std::vector<Diagnostic> &diagnostics)
{
    for (const auto &d : diagnostics) {
        if (d.severity == Severity::Error)
            return d.toString();
    }
    return "(no error)";
}

} // namespace

class TestBadFiles : public QObject
{
    Q_OBJECT

private slots:
    void everyBadFileIsListed();
    void producesItsExactMessage_data();
    void producesItsExactMessage();
    void sessionProducesItsExactMessage_data();
    void sessionProducesItsExactMessage();
    void refusesOverlongLines();
    void allowsLongJsonLines();
    void refusesTooManyLines_data();
    void refusesTooManyLines();
    void readsUtf16WithByteOrderMark();
};

void TestBadFiles::everyBadFileIsListed()
{
    QSet<QString> listed;
    for (const auto &e : kCorpus)
        listed.insert(QString::fromUtf8(e.file));
    for (const auto &e : kSessionCorpus)
        listed.insert(QString::fromUtf8(e.file));
    const QStringList present = QDir(kBad).entryList(QDir::Files);
    for (const QString &file : present)
        QVERIFY2(listed.contains(file), qPrintable(file + " has no expected message"));
    for (const QString &file : listed)
        QVERIFY2(present.contains(file), qPrintable(file + " is listed but missing"));
}

void TestBadFiles::producesItsExactMessage_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("hardware");
    QTest::addColumn<QString>("message");
    for (const auto &e : kCorpus)
        QTest::newRow(e.file) << QString::fromUtf8(e.file) << e.hardware
                              << QString::fromUtf8(e.message);
}

void TestBadFiles::producesItsExactMessage()
{
    QFETCH(QString, file);
    QFETCH(bool, hardware);
    QFETCH(QString, message);
    const auto text = readTextFile((kBad + file).toStdString());
    QVERIFY(text);
    const std::string name = file.toStdString();
    if (hardware) {
        const auto result = readHardwareFile(*text, name);
        QVERIFY(result.hardware.machines.empty());
        QCOMPARE(QString::fromStdString(firstError(result.hardware.diagnostics)), message);
    } else {
        const auto result = readPointsFile(*text, name);
        QCOMPARE(QString::fromStdString(firstError(result.points.diagnostics)), message);
    }
}

void TestBadFiles::sessionProducesItsExactMessage_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    for (const auto &e : kSessionCorpus)
        QTest::newRow(e.file) << QString::fromUtf8(e.file) << QString::fromUtf8(e.message);
}

void TestBadFiles::sessionProducesItsExactMessage()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const auto text = readTextFile((kBad + file).toStdString());
    QVERIFY(text);
    QCOMPARE(QString::fromStdString(sessionError(*text, file.toStdString())), message);
}

void TestBadFiles::refusesOverlongLines()
{
    // A 10 MB single line: refused at once, with the line named.
    std::string text = "name,flops,bytes,seconds\nk,1,1,";
    text += std::string(10'000'000, '1');
    const auto result = readPointsFile(text, "long.csv");
    QVERIFY(result.points.points.empty());
    QCOMPARE(QString::fromStdString(firstError(result.points.diagnostics)),
        QString("long.csv:2: line longer than 1048576 bytes: this does not look like a table "
                "of kernels"));
}

void TestBadFiles::allowsLongJsonLines()
{
    // Minified JSON is one long line, and that is fine.
    std::string text = R"({"format": "ridgepoint-points", "version": 1, "points": [)";
    for (int i = 0; i < 30000; ++i)
        text += std::string(i ? "," : "") + R"({"name": "k)" + std::to_string(i)
            + R"(", "flops": 1e9, "bytes": [{"level": "HBM", "bytes": 1e9}]})";
    text += "]}";
    QVERIFY(text.size() > (1U << 20));
    QVERIFY(!checkTextInput(text, "big.json").error);
    const auto result = readPointsFile(text, "big.json");
    QCOMPARE(result.points.points.size(), std::size_t { 30000 });
}

void TestBadFiles::refusesTooManyLines_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line"); // named in the refusal; 0: accepted
    QTest::newRow("at the limit") << "a\nb\nc\n" << 0;
    QTest::newRow("at the limit, no last newline") << "a\nb\nc" << 0;
    // Line 4 is the file's last: it was named as line 5, past the end of the file.
    QTest::newRow("one line more") << "a\nb\nc\nd\n" << 4;
    QTest::newRow("one line more, no last newline") << "a\nb\nc\nd" << 4;
    QTest::newRow("one empty line more") << "a\nb\nc\n\n" << 4;
    QTest::newRow("two lines more") << "a\nb\nc\nd\ne\n" << 4;
}

void TestBadFiles::refusesTooManyLines()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    InputLimits limits;
    limits.maxLines = 3;
    const auto check = checkTextInput(text.toStdString(), "rows.csv", limits);
    QCOMPARE(check.error.has_value(), line > 0);
    if (line > 0)
        QCOMPARE(QString::fromStdString(check.error->toString()),
            QString("rows.csv:%1: more than 3 lines: the file is larger than Ridgepoint reads")
                .arg(line));
}

void TestBadFiles::readsUtf16WithByteOrderMark()
{
    // PowerShell 5 writes UTF-16LE with a BOM (docs/FORMATS.md §1.2).
    const auto text = readTextFile(test::sourceFile("tests/data/encodings/utf16le_points.csv"));
    QVERIFY(text);
    const auto result = readPointsFile(*text, "utf16.csv");
    QVERIFY(result.points.diagnostics.empty());
    QCOMPARE(result.points.points.size(), std::size_t { 1 });
    QCOMPARE(result.points.points.front().name, std::string("gemm"));
    QCOMPARE(*result.points.points.front().seconds, 0.03);
}

QTEST_GUILESS_MAIN(TestBadFiles)
#include "tst_badfiles.moc"
