#include "app/cli/cli_option_groups.h"

#include "app/cli/cli_common.h"
#include "core/io/file_io.h"
#include "core/io/readers.h"
#include "core/model/units.h"
#include "core/model/value_ranges.h"
#include "core/presets/presets.h"

#include <QFileInfo>

namespace ridgepoint::cli {

QCommandLineOption hiddenOption(
    const QString &name, const QString &description, const QString &valueName)
{
    QCommandLineOption option(name, description, valueName);
    option.setFlags(QCommandLineOption::HiddenFromHelp);
    return option;
}

QString dashed(const QCommandLineOption &option)
{
    return "--" + option.names().constLast();
}

std::optional<QString> givenValue(
    const QCommandLineParser &parser, const QCommandLineOption &option)
{
    if (!parser.isSet(option))
        return std::nullopt;
    return parser.value(option);
}

// ---- the machine -------------------------------------------------------------------------------

void MachineOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({ m_hardware, m_peak, m_bandwidth, m_compute, m_sustained, m_figures });
}

MachineRequest MachineOptions::read(const QCommandLineParser &parser) const
{
    MachineRequest request;
    request.hardware = givenValue(parser, m_hardware);
    request.peak = givenValue(parser, m_peak);
    request.bandwidth = givenValue(parser, m_bandwidth);
    request.compute = givenValue(parser, m_compute);
    request.figures = givenValue(parser, m_figures);
    request.sustained = parser.isSet(m_sustained);
    return request;
}

std::string MachineRequest::computeName() const
{
    return compute.value_or(QString()).toStdString();
}

namespace {

// --figures measured|spec, else `fallback`; nullopt after the reason when the value is neither.
std::optional<FigureChoice> figuresChoice(
    const std::optional<QString> &given, FigureChoice fallback)
{
    if (!given)
        return fallback;
    const auto choice = figureChoiceFromName(given->toStdString());
    if (!choice)
        err() << "--figures: expected measured or spec, got \"" << *given << "\"" << Qt::endl;
    return choice;
}

// --peak or --bandwidth (`option`) as a positive quantity of `dimension` in the range of
// `quantity`; `ok` false after saying why it is not one.
std::optional<double> rateOption(const std::optional<QString> &given, const char *option,
    Dimension dimension, Quantity quantity, bool &ok)
{
    ok = true;
    if (!given)
        return std::nullopt;
    auto value = parsePositiveQuantity(given->toStdString(), dimension);
    if (!value) {
        err() << option << ": " << QString::fromStdString(value.error()) << Qt::endl;
        ok = false;
        return std::nullopt;
    }
    if (auto problem = valueProblem(*value, quantity)) {
        err() << option << ": " << QString::fromStdString(*problem) << Qt::endl;
        ok = false;
        return std::nullopt;
    }
    return *value;
}

} // namespace

bool namesAFile(const QString &wanted)
{
    return wanted.endsWith(".json", Qt::CaseInsensitive) || QFileInfo::exists(wanted);
}

std::vector<Hardware> machinesInFile(const QString &path, const ReadOptions &readOptions)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return {};
    }
    if (holdsSession(*text)) {
        err() << path << ": a session (or a picture that may carry one), not a machine file: "
              << "'ridgepoint analyze " << path << "' shows it on its machine" << Qt::endl;
        return {};
    }
    // Any ceiling format: hardware JSON, ERT, rocprof-compute, Advisor, ncu section.
    auto result = readHardwareFile(*text, path.toStdString(), readOptions).hardware;
    for (const auto &d : result.diagnostics)
        err() << QString::fromStdString(d.toString()) << Qt::endl;
    if (result.machines.empty())
        err() << path << ": no usable machine in this hardware file" << Qt::endl;
    return std::move(result.machines);
}

std::optional<Hardware> machineNamed(
    const QString &wanted, const QString &option, const ReadOptions &readOptions)
{
    if (namesAFile(wanted)) {
        auto machines = machinesInFile(wanted, readOptions);
        if (machines.empty())
            return std::nullopt;
        if (machines.size() > 1)
            err() << wanted << ": warning: " << machines.size() << " machines; the first, \""
                  << QString::fromStdString(machines.front().name)
                  << "\", is used ('ridgepoint presets " << wanted << "' lists them)" << Qt::endl;
        return std::move(machines.front());
    }
    const PresetDatabase presets = PresetDatabase::builtin();
    auto found = presets.find(wanted.toStdString());
    if (!found) {
        err() << option << ": " << QString::fromStdString(found.error()) << Qt::endl;
        return std::nullopt;
    }
    return **found;
}

std::optional<Hardware> MachineRequest::machine(
    const Hardware *fallback, const ReadOptions &readOptions, FigureChoice figureChoice) const
{
    const auto chosenFigures = figuresChoice(figures, figureChoice);
    if (!chosenFigures)
        return std::nullopt;
    bool ok = true;
    std::optional<double> peakValue
        = rateOption(peak, "--peak", Dimension::FlopRate, Quantity::Peak, ok);
    if (!ok)
        return std::nullopt;
    std::optional<double> bandwidthValue
        = rateOption(bandwidth, "--bandwidth", Dimension::ByteRate, Quantity::Bandwidth, ok);
    if (!ok)
        return std::nullopt;

    Hardware chosen;
    if (hardware) {
        auto named = machineNamed(*hardware, "--hardware", readOptions);
        if (!named)
            return std::nullopt;
        chosen = std::move(*named);
    } else if (fallback) {
        chosen = *fallback;
    } else if (peakValue && bandwidthValue) {
        chosen = makeSimpleMachine(*peakValue, *bandwidthValue);
        peakValue.reset();
        bandwidthValue.reset();
    } else {
        err() << "no machine given: use --hardware NAME|FILE, or both --peak and "
                 "--bandwidth (see 'ridgepoint presets')"
              << Qt::endl;
        return std::nullopt;
    }

    const std::string name = computeName();
    if (!name.empty() && !chosen.findCompute(name)) {
        QString names;
        for (const auto &c : chosen.compute)
            names += (names.isEmpty() ? "" : ", ") + QString::fromStdString(c.name);
        err() << "--compute: no compute ceiling named \"" << *compute << "\" on "
              << QString::fromStdString(chosen.name) << " (it has: " << names << ")" << Qt::endl;
        return std::nullopt;
    }
    auto custom
        = withOverrides(withFigures(chosen, *chosenFigures), peakValue, bandwidthValue, name);
    if (!custom) {
        err() << QString::fromStdString(custom.error()) << Qt::endl;
        return std::nullopt;
    }
    if (sustained)
        return withSustainedPeaks(*custom);
    return *custom;
}

AnalysisOptions MachineRequest::analysisOptions(const Hardware &machine, bool sessionMachine) const
{
    AnalysisOptions options;
    if (compute) {
        options.computeCeiling = compute->toStdString();
    } else if (peak || (!hardware && !sessionMachine)) {
        if (const ComputeCeiling *ceiling = machine.defaultComputeCeiling())
            options.computeCeiling = ceiling->name;
    }
    return options;
}

void MachineRequest::adoptPrecision(Hardware &machine, Precision precision) const
{
    if (!hardware && machine.compute.size() == 1)
        machine.compute.front().precision = precision;
}

// ---- reading options ---------------------------------------------------------------------------

void ReadOptionGroup::addTo(QCommandLineParser &parser) const
{
    parser.addOptions(
        { m_perKernel, m_tensorFlops, m_halfFma, m_decimalComma, m_decimalPoint, m_ldsBanks });
}

bool ReadOptionGroup::anyGiven(const QCommandLineParser &parser) const
{
    for (const auto *option : { &m_perKernel, &m_tensorFlops, &m_halfFma, &m_decimalComma,
             &m_decimalPoint, &m_ldsBanks }) {
        if (parser.isSet(*option))
            return true;
    }
    return false;
}

namespace {

// The value of `option` as a whole number in [1, max]; nullopt (after `expected`) otherwise.
// The ranges are File ▸ Import options…'s (widgets/document/pointsloader.h).
std::optional<qint64> wholeNumberOption(const QCommandLineParser &parser,
    const QCommandLineOption &option, qint64 max, const char *expected)
{
    const QString text = parser.value(option);
    bool ok = false;
    const qint64 value = text.trimmed().toLongLong(&ok);
    if (!ok || value < 1 || value > max) {
        err() << dashed(option) << ": expected " << expected << ", a whole number from 1 to " << max
              << ", got \"" << text << "\"" << Qt::endl;
        return std::nullopt;
    }
    return value;
}

} // namespace

std::optional<ReadOptions> ReadOptionGroup::read(const QCommandLineParser &parser) const
{
    ReadOptions options;
    options.ncu.sumLaunchesOfAKernel = parser.isSet(m_perKernel);
    options.rocprof.sumDispatchesOfAKernel = parser.isSet(m_perKernel);
    if (parser.isSet(m_tensorFlops)) {
        const auto value = wholeNumberOption(parser, m_tensorFlops, kMaxTensorFlopsPerInstruction,
            "FLOP per tensor instruction (512 on V100, 1024 on A100)");
        if (!value)
            return std::nullopt;
        options.ncu.tensorFlopsPerInstruction = static_cast<double>(*value);
    }
    if (const auto given = givenValue(parser, m_halfFma)) {
        const QString text = given->trimmed();
        if (text != "2" && text != "4") {
            err() << "--half-fma-flops: expected 2 (NERSC) or 4 (ncu's roofline, a packed "
                     "HFMA2), got \""
                  << *given << "\"" << Qt::endl;
            return std::nullopt;
        }
        options.ncu.halfFlopsPerFma = text.toDouble();
    }
    const bool comma = parser.isSet(m_decimalComma);
    const bool point = parser.isSet(m_decimalPoint);
    if (comma && point) {
        err() << "--decimal-comma and --decimal-point contradict each other: give one of them "
                 "(or neither, to tell from each file)"
              << Qt::endl;
        return std::nullopt;
    }
    if (comma)
        options.ncu.decimalComma = true;
    else if (point)
        options.ncu.decimalComma = false;
    if (parser.isSet(m_ldsBanks)) {
        const auto value = wholeNumberOption(parser, m_ldsBanks, kMaxLdsBanksPerCu,
            "LDS banks per compute unit (32 on MI200 and MI300)");
        if (!value)
            return std::nullopt;
        options.rocprof.ldsBanksPerCu = static_cast<double>(*value);
    }
    return options;
}

bool MachineRequest::takeMachineFile(QStringList &files)
{
    QStringList machines;
    for (const QString &file : files) {
        if (givesOnlyAMachine(file))
            machines << file;
    }
    if (machines.isEmpty())
        return true;
    const QString given = namesMachine() ? "--hardware " + *hardware
        : describesMachine()             ? QString("--peak with --bandwidth")
                                         : QString();
    if (!given.isEmpty() || machines.size() > 1) {
        err() << machines.join(", ") << ": "
              << (machines.size() > 1 ? "each gives a machine" : "gives a machine")
              << ", not points, and one machine is used at a time"
              << (given.isEmpty() ? QString() : " (given: " + given + ")")
              << ": give one (render --compare FILE draws a second beside it)" << Qt::endl;
        return false;
    }
    err() << machines.front() << ": gives a machine, not points: taken as the machine (--hardware "
          << machines.front() << ")" << Qt::endl;
    files.removeOne(machines.front());
    hardware = machines.front();
    return true;
}

} // namespace ridgepoint::cli
