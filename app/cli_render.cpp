#include "app/cli.h"
#include "app/cli_commands.h"
#include "app/cli_common.h"

#include "core/analysis.h"
#include "widgets/rooflineplot.h"

#include <QFileInfo>

namespace ridgepoint::cli {

int runRender(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Draw the roofline of a machine with the given kernels to an image (PNG, SVG or PDF, "
        "chosen by the output's suffix). Works without a display.");
    addHardwareOptions(parser);
    parser.addOption({ { "o", "output" }, "Image file to write (.png, .svg, .pdf).", "file" });
    parser.addOption({ "width", "Width in pixels (default 1600).", "px", "1600" });
    parser.addOption({ "height", "Height in pixels (default 1000).", "px", "1000" });
    parser.addOption({ "example", "Draw the built-in example data set as well." });
    parser.addOption({ "fit", "Frame the axes around the points instead of the hardware." });
    parser.addPositionalArgument("files", "Point files (CSV).", "[FILE...]");
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.isSet("output")) {
        err() << "render needs an output file: -o roofline.png" << Qt::endl;
        return kExitBadInput;
    }
    bool okWidth = false;
    bool okHeight = false;
    const int width = parser.value("width").toInt(&okWidth);
    const int height = parser.value("height").toInt(&okHeight);
    if (!okWidth || !okHeight || width < 100 || height < 100 || width > 20000 || height > 20000) {
        err() << "--width and --height must be whole numbers of pixels between 100 and 20000"
              << Qt::endl;
        return kExitBadInput;
    }
    const auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;

    std::vector<KernelPoint> points;
    int rowErrors = 0;
    for (const QString &file : parser.positionalArguments()) {
        auto read = readPointsFile(file, rowErrors);
        if (!read)
            return kExitBadInput;
        points.insert(points.end(), read->begin(), read->end());
    }
    if (parser.isSet("example")) {
        auto example = examplePoints();
        points.insert(points.end(), example.begin(), example.end());
    }
    const AnalysisOptions options = analysisOptionsFromOptions(parser, *hardware);
    std::vector<Diagnostic> problems;
    auto analysed = analyzePoints(points, *hardware, options, problems);
    for (const auto &problem : problems)
        err() << QString::fromStdString(problem.toString()) << Qt::endl;

    RooflinePlot plot;
    plot.resize(width, height);
    plot.setHardware(*hardware);
    plot.setAnalysisOptions(options);
    plot.setPoints(std::move(analysed));
    if (parser.isSet("fit"))
        plot.fitToData();
    const QString output = parser.value("output");
    const QString error = plot.exportTo(output, width, height);
    if (!error.isEmpty()) {
        err() << error << Qt::endl;
        return kExitFailure;
    }
    out() << "wrote " << QFileInfo(output).absoluteFilePath() << Qt::endl;
    return kExitOk;
}

} // namespace ridgepoint::cli
