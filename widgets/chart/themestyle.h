// The window's look under a chart theme: the palette of ChartTheme::windowPalette() and a thin
// proxy over the platform's style that keeps the outlines of check boxes and radio buttons
// visible on every theme, and the table grid on the dark one (Fusion draws them a shade darker
// than the window, which on a dark window is the background itself).
#pragma once

#include "widgets/chart/charttheme.h"

#include <QProxyStyle>

namespace ridgepoint {

class ThemeStyle : public QProxyStyle
{
    Q_OBJECT

public:
    // Wraps the style of that name (the platform's, usually "Fusion"); null: the default one.
    explicit ThemeStyle(const QString &baseStyle = QString());

    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
        const QWidget *widget = nullptr) const override;
    int styleHint(StyleHint hint, const QStyleOption *option = nullptr,
        const QWidget *widget = nullptr, QStyleHintReturn *returnData = nullptr) const override;

    // The outline of an indicator (check box, radio button, grid line) on `palette`: the text
    // colour mixed into the base until it stands out from both the window and the base.
    static QColor outlineColor(const QPalette &palette);
    // True when the palette's window is dark (the dark theme).
    static bool isDark(const QPalette &palette);
};

// Gives the application the theme's palette under a ThemeStyle (installed once, on first use).
void applyWindowTheme(const ChartTheme &theme);

} // namespace ridgepoint
