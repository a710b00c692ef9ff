#include "widgets/export/energyexport.h"

#include "widgets/chart/charttheme.h"
#include "widgets/chart/energychart.h"
#include "widgets/document/document.h"
#include "widgets/document/sessionfile.h"
#include "widgets/export/exportoptions.h"
#include "widgets/export/picturewriter.h"
#include "widgets/qtext.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <qcustomplot.h>

namespace ridgepoint {
namespace {

struct Tr {
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)
};

} // namespace

QString exportEnergyChart(const QString &fileName, const Document &document,
    const ChartTheme &theme, const ExportOptions &options, chart::EnergyChart &drawn)
{
    QCustomPlot plot;
    plot.resize(options.width, options.height);
    plot.setAntialiasedElements(QCP::aeAll);
    QFont font = plot.font();
    font.setPointSizeF(
        font.pointSizeF() * theme.fontScale * (options.fontScale > 0.0 ? options.fontScale : 1.0));
    plot.setFont(font);
    plot.legend->setFont(font);
    plot.xAxis->setLabelFont(font);
    plot.yAxis->setLabelFont(font);
    drawn = chart::drawEnergyChart(plot, document, theme);
    if (!drawn.problem.isEmpty())
        return {};
    const QString title = options.title.isEmpty()
        ? Tr::tr("Energy roofline: %1").arg(q(document.hardware().name))
        : options.title;
    const QByteArray bytes = writePicture(QFileInfo(fileName).suffix().toLower(), options,
        theme.background, title, [&plot, &options](QCPPainter *painter) {
            plot.toPainter(painter, options.width, options.height);
        });
    if (bytes.isEmpty())
        return Tr::tr("%1: the energy chart could not be rendered").arg(fileName);
    return writeOutput(fileName, bytes);
}

} // namespace ridgepoint
