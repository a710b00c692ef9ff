// The trace reader's parse (core/io/formats/kineto_events.cpp, simdjson On-Demand): numbers told
// apart as the SAX reader before it did, broken JSON refused wherever it lies with the same words
// and position, nesting refused at 512 levels without recursing further, events placed by line
// and byte column, and the text parsed in place when it has room past its end.
#include "core/io/file_io.h"
#include "core/io/formats/kineto_events.h"
#include "core/io/inflate.h"
#include "core/io/text.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace ridgepoint;
using namespace ridgepoint::kineto;

class TestKinetoEvents : public QObject
{
    Q_OBJECT

private slots:
    void readsSizesAsWholeNumbersOnly_data();
    void readsSizesAsWholeNumbersOnly();
    void refusesBrokenJsonAnywhere_data();
    void refusesBrokenJsonAnywhere();
    void placesEventsByLineAndByteColumn();
    void takesAThreadPastInt64AsInt64Min();
    void readsTheDeviceAloneWithoutTheEvents();
    void parsesInPlaceWhenTheTextHasRoom();
    void readersLeaveRoomAfterTheText();
};

namespace {

// One operator whose "Input Dims" are `dims`.
std::string operatorWithDims(const std::string &dims)
{
    return R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1,
        "tid": 1, "ts": 1, "dur": 2, "args": {"Input Dims": [)"
        + dims + "]}}]}";
}

std::string messages(const std::vector<Diagnostic> &diagnostics)
{
    std::string out;
    for (const Diagnostic &d : diagnostics)
        out += d.toString() + "\n";
    return out;
}

} // namespace

// A size is kept when the number is written as a whole number that fits std::int64_t (as
// nlohmann's parser gave it, number_integer); "-0" is one (the integer 0); 3.0 and 1e2 are
// written as decimals; 2^64 - 1 fits only std::uint64_t and 2^64 neither.
void TestKinetoEvents::readsSizesAsWholeNumbersOnly_data()
{
    QTest::addColumn<QString>("dims");
    QTest::addColumn<bool>("listed");
    QTest::addColumn<QList<qint64>>("sizes");
    QTest::newRow("whole") << "[2, 3]" << true << QList<qint64> { 2, 3 };
    QTest::newRow("minus zero") << "[2, -0]" << true << QList<qint64> { 2, 0 };
    QTest::newRow("decimal") << "[2, 3.0]" << false << QList<qint64> { 2 };
    QTest::newRow("exponent") << "[1e2, 2]" << false << QList<qint64> { 2 };
    QTest::newRow("int64 min") << "[-9223372036854775808]" << true << QList<qint64> { INT64_MIN };
    QTest::newRow("uint64 max") << "[18446744073709551615]" << false << QList<qint64> {};
    QTest::newRow("past 64 bits") << "[18446744073709551616, 4]" << false << QList<qint64> { 4 };
    QTest::newRow("string") << R"(["4", 4])" << false << QList<qint64> { 4 };
}

void TestKinetoEvents::readsSizesAsWholeNumbersOnly()
{
    QFETCH(QString, dims);
    QFETCH(bool, listed);
    QFETCH(QList<qint64>, sizes);
    std::vector<Diagnostic> diagnostics;
    const auto events = readEvents(operatorWithDims(dims.toStdString()), "t.json", diagnostics);
    QVERIFY2(events, messages(diagnostics).c_str());
    QCOMPARE(events->operators.size(), std::size_t { 1 });
    const OperatorInput &input = events->operators.front().inputs.at(0);
    QCOMPARE(input.listed, listed);
    QCOMPARE(QList<qint64>(input.dims.begin(), input.dims.end()), sizes);
}

// Each fault where no field is kept (simdjson skips such values unless made to read them), said
// as nlohmann's parser says it (the reader's messages before simdjson), at the last character it
// read (column = offset + 1): the one that broke a literal, a string's closing quote, the first
// digit of a number too large, the first bracket too deep.
void TestKinetoEvents::refusesBrokenJsonAnywhere_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray head = R"({"traceEvents": [{"ph": "X", "args": {"grid": )";
    // head is 46 bytes: the value starts at column 47.
    QTest::newRow("literal in args") << head + "[1, tru]}}]}"
                                     << "t.json:1:54: invalid JSON: syntax error while parsing "
                                        "value - invalid literal; last read: '1, tru]'";
    QTest::newRow("number too large") << head + "1e999}}]}"
                                      << "t.json:1:47: invalid JSON: number overflow parsing "
                                         "'1e999' (expected a whole PyTorch profiler trace)";
    QTest::newRow("escape") << head + R"("\x"}}]})"
                            << "t.json:1:49: invalid JSON: syntax error while parsing value - "
                               "invalid string: forbidden character after backslash";
    QTest::newRow("missing comma") << head + R"(1 "x": 2}}]})"
                                   << "t.json:1:51: invalid JSON: syntax error while parsing "
                                      "object - unexpected string literal; expected '}'";
    QTest::newRow("text after the end")
        << QByteArray(R"({"traceEvents": []} x)")
        << "t.json:1:21: invalid JSON: syntax error while parsing value - invalid literal; last "
           "read: '\"traceEvents\": []} x'; expected end of input";
    // Levels: the file's object 1, traceEvents 2, the event 3, args 4, then the '['s from 5: the
    // 509th of them is level 513, at offset 46 + 508.
    QTest::newRow("nested in args") << head + QByteArray(100'000, '[')
                                    << "t.json:1:555: invalid JSON: nested deeper than 512 "
                                       "levels (expected a whole PyTorch profiler trace)";
    QTest::newRow("open string") << QByteArray(R"({"traceEvents": [{"name": "gem)")
                                 << "t.json:1:31: invalid JSON: syntax error while parsing "
                                    "value - invalid string: missing closing quote";
}

void TestKinetoEvents::refusesBrokenJsonAnywhere()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    std::vector<Diagnostic> diagnostics;
    QVERIFY(!readEvents(text.toStdString(), "t.json", diagnostics));
    QCOMPARE(diagnostics.size(), std::size_t { 1 });
    QVERIFY2(QString::fromStdString(diagnostics.front().toString()).startsWith(message),
        diagnostics.front().toString().c_str());
}

// An event's place is its '{': the line, and the column in bytes ("é" is two).
void TestKinetoEvents::placesEventsByLineAndByteColumn()
{
    const std::string text
        = "{\"traceEvents\": [{\"name\": \"\xC3\xA9\"}, "
          "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 1},\n"
          "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 2}]}";
    std::vector<Diagnostic> diagnostics;
    const auto events = readEvents(text, "t.json", diagnostics);
    QVERIFY2(events, messages(diagnostics).c_str());
    QCOMPARE(events->kernels.size(), std::size_t { 2 });
    // Line 1: {"traceEvents": [ (17 bytes), {"name": "é"} (14 bytes), ", " (2): the second
    // event's '{' is at offset 33, column 34.
    QCOMPARE(events->kernels[0].place.line, 1);
    QCOMPARE(events->kernels[0].place.column, 34);
    QCOMPARE(events->kernels[1].place.line, 2);
    QCOMPARE(events->kernels[1].place.column, 3);
}

// A pid or tid std::int64_t cannot hold (2^64 - 1, 1e300) is INT64_MIN, as the conversion gave it
// on x86-64 before it was checked (UBSan: out of range); 1.5 is cut to 1.
void TestKinetoEvents::takesAThreadPastInt64AsInt64Min()
{
    const std::string text = R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 18446744073709551615, "tid": 1e300,
         "ts": 1, "dur": 2},
        {"ph": "X", "cat": "cpu_op", "name": "b", "pid": -1e300, "tid": 1.5, "ts": 1, "dur": 2}]})";
    std::vector<Diagnostic> diagnostics;
    const auto events = readEvents(text, "t.json", diagnostics);
    QVERIFY2(events, messages(diagnostics).c_str());
    QCOMPARE(events->operators.size(), std::size_t { 2 });
    QCOMPARE(events->operators[0].pid, INT64_MIN);
    QCOMPARE(events->operators[0].tid, INT64_MIN);
    QCOMPARE(events->operators[1].pid, INT64_MIN);
    QCOMPARE(events->operators[1].tid, std::int64_t { 1 });
}

// The machine of a trace reads deviceProperties and stops: what follows is not parsed, so a
// trace cut short after it still names its device.
void TestKinetoEvents::readsTheDeviceAloneWithoutTheEvents()
{
    const std::string text = R"({"deviceProperties": [{"name": "NVIDIA A100-PG509-200",
        "numSms": 108, "totalGlobalMem": 42505273344}, {"name": "second"}],
        "traceEvents": [{"ph": "X", "cat": "kern)";
    std::vector<Diagnostic> diagnostics;
    const auto device = readEvents(text, "t.json", diagnostics, true);
    QVERIFY2(device, messages(diagnostics).c_str());
    QCOMPARE(device->device.value_or(""), std::string("NVIDIA A100-PG509-200"));
    QCOMPARE(device->multiprocessors.value_or(0), 108);
    QCOMPARE(device->memoryBytes.value_or(0.0), 42505273344.0);
    QCOMPARE(device->devices, std::size_t { 2 });
    QVERIFY(!readEvents(text, "t.json", diagnostics));
}

// A text with kTextPadding bytes of room is read where it lies, with the same events as a copy.
void TestKinetoEvents::parsesInPlaceWhenTheTextHasRoom()
{
    std::string text = R"({"deviceProperties": [{"name": "d"}], "traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "k", "dur": 3, "args": {"correlation": 7}}]})";
    text.reserve(text.size() + kTextPadding);
    std::vector<Diagnostic> diagnostics;
    const auto inPlace = readEvents(text, "t.json", diagnostics, false, kTextPadding);
    const auto copied = readEvents(text, "t.json", diagnostics, false, 0);
    QVERIFY2(inPlace && copied, messages(diagnostics).c_str());
    for (const auto *events : { &*inPlace, &*copied }) {
        QCOMPARE(events->kernels.size(), std::size_t { 1 });
        QCOMPARE(events->kernels.front().dur, 3.0);
        QCOMPARE(events->kernels.front().correlation.value_or(0), std::int64_t { 7 });
        QCOMPARE(events->kernels.front().place.line, 2);
        QCOMPARE(events->kernels.front().place.column, 9);
        QCOMPARE(events->device.value_or(""), std::string("d"));
    }
}

// readTextFile and the inflater leave kTextPadding bytes of room after the text, so a trace read
// from a file, plain or gzip, is parsed without a second copy of it.
void TestKinetoEvents::readersLeaveRoomAfterTheText()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("t.json").toStdString();
    const std::string text(100'000, ' ');
    std::ofstream(path, std::ios::binary) << text;
    const auto read = readTextFile(path);
    QVERIFY(read);
    QCOMPARE(read->size(), text.size());
    QVERIFY(read->capacity() - read->size() >= kTextPadding);
    // gzip of 100,000 blanks: a stored (uncompressed) deflate stream would do, but zlib's is
    // smaller; qCompress gives the zlib stream, inflateCapped takes it.
    const QByteArray zlib = qCompress(QByteArray::fromStdString(text), 9).mid(4);
    const auto inflated = inflateCapped(zlib.toStdString(), std::size_t { 1 } << 20);
    QVERIFY(inflated);
    QCOMPARE(inflated->size(), text.size());
    QVERIFY(inflated->capacity() - inflated->size() >= kTextPadding);
}

QTEST_APPLESS_MAIN(TestKinetoEvents)
#include "tst_kinetoevents.moc"
