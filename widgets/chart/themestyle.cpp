#include "widgets/chart/themestyle.h"

#include <QApplication>
#include <QPainter>
#include <QStyleFactory>
#include <QStyleOption>

#include <algorithm>
#include <cmath>

namespace ridgepoint {
namespace {

QColor mixed(const QColor &a, const QColor &b, double t)
{
    const auto channel = [t](int x, int y) { return int(std::lround(x + (y - x) * t)); };
    return QColor(
        channel(a.red(), b.red()), channel(a.green(), b.green()), channel(a.blue(), b.blue()));
}

} // namespace

ThemeStyle::ThemeStyle(const QString &baseStyle)
    : QProxyStyle(baseStyle.isEmpty() ? nullptr : QStyleFactory::create(baseStyle))
{ }

bool ThemeStyle::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QColor ThemeStyle::outlineColor(const QPalette &palette)
{
    const QColor window = palette.color(QPalette::Window);
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    // WCAG's 3:1 for graphics against whichever of window and base is nearer the outline.
    QColor outline = mixed(base, text, 0.45);
    for (double t = 0.45; t < 1.0
         && std::min(contrastRatio(outline, window), contrastRatio(outline, base))
             < ChartTheme::kMinLineContrast;
         t += 0.05)
        outline = mixed(base, text, t);
    return outline;
}

void ThemeStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option,
    QPainter *painter, const QWidget *widget) const
{
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if (!option)
        return;
    // Fusion's own outline is the window colour darkened: on a dark window it disappears, on a
    // light one it is faint. The same outline drawn again in a colour that stands out from the
    // window and the base; the mark inside is Fusion's.
    const bool box = element == PE_IndicatorCheckBox;
    const bool radio = element == PE_IndicatorRadioButton;
    if (!box && !radio)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    QColor outline = outlineColor(option->palette);
    if (!(option->state & State_Enabled))
        outline = mixed(option->palette.color(QPalette::Base), outline, 0.5);
    painter->setPen(QPen(outline, 1.0));
    painter->setBrush(Qt::NoBrush);
    const QRectF rect = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (box) {
        painter->drawRect(rect);
    } else {
        painter->setPen(QPen(outline, 1.5));
        painter->drawEllipse(rect.adjusted(0.5, 0.5, -0.5, -0.5));
    }
    painter->restore();
}

int ThemeStyle::styleHint(StyleHint hint, const QStyleOption *option, const QWidget *widget,
    QStyleHintReturn *returnData) const
{
    if (hint == SH_Table_GridLineColor && option && isDark(option->palette))
        return int(outlineColor(option->palette).darker(130).rgba());
    return QProxyStyle::styleHint(hint, option, widget, returnData);
}

void applyWindowTheme(const ChartTheme &theme)
{
    // Changing the style resets the palette, so the style goes first, once.
    if (!qobject_cast<ThemeStyle *>(QApplication::style()))
        QApplication::setStyle(new ThemeStyle(QApplication::style()->name()));
    QApplication::setPalette(theme.windowPalette());
}

} // namespace ridgepoint
