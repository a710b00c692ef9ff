#include "widgets/chart/charttheme.h"

#include <QApplication>
#include <QStyle>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ridgepoint {

ChartTheme ChartTheme::light()
{
    ChartTheme t;
    t.kind = Kind::Light;
    t.background = Qt::white;
    t.foreground = QColor(0x30, 0x30, 0x30);
    t.grid = QColor(0xd4, 0xd4, 0xd4);
    t.subGrid = QColor(0xee, 0xee, 0xee);
    t.envelope = QColor(0x1a, 0x1a, 0x1a);
    t.legendBackground = QColor(255, 255, 255, 225);
    return t;
}

ChartTheme ChartTheme::dark()
{
    ChartTheme t;
    t.kind = Kind::Dark;
    t.background = QColor(0x1e, 0x21, 0x26);
    t.foreground = QColor(0xd8, 0xdc, 0xe2);
    t.grid = QColor(0x3a, 0x3f, 0x47);
    t.subGrid = QColor(0x2a, 0x2e, 0x34);
    t.envelope = QColor(0xf2, 0xf2, 0xf2);
    t.legendBackground = QColor(0x2a, 0x2e, 0x34, 230);
    return t;
}

ChartTheme ChartTheme::print()
{
    ChartTheme t;
    t.kind = Kind::Print;
    t.background = Qt::white;
    t.foreground = Qt::black;
    t.grid = QColor(0xc8, 0xc8, 0xc8);
    t.subGrid = QColor(0xe8, 0xe8, 0xe8);
    t.envelope = Qt::black;
    t.legendBackground = Qt::white;
    t.lineScale = 1.8;
    t.fontScale = 1.35;
    t.shading = false;
    return t;
}

QPalette ChartTheme::windowPalette() const
{
    if (kind != Kind::Dark)
        return QApplication::style()->standardPalette();
    // The chart's own colours carried to docks, tables and menus.
    const QColor window(0x25, 0x29, 0x2f);
    const QColor base(0x1e, 0x21, 0x26);
    const QColor text = foreground;
    const QColor disabled(0x7a, 0x80, 0x88);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2e, 0x34));
    p.setColor(QPalette::ToolTipBase, QColor(0x2a, 0x2e, 0x34));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x30, 0x35, 0x3c));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3d, 0x43, 0x4b));
    p.setColor(QPalette::Midlight, QColor(0x35, 0x3a, 0x41));
    p.setColor(QPalette::Mid, QColor(0x2a, 0x2e, 0x34));
    p.setColor(QPalette::Dark, QColor(0x16, 0x18, 0x1c));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xc8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3a, 0x3f, 0x47));
    return p;
}

ChartTheme ChartTheme::of(Kind kind)
{
    switch (kind) {
    case Kind::Dark:
        return dark();
    case Kind::Print:
        return print();
    case Kind::Light:
        break;
    }
    return light();
}

double contrastRatio(const QColor &a, const QColor &b)
{
    // Relative luminance of sRGB (WCAG 2.x).
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) {
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF())
            + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor ChartTheme::readable(const QColor &color, double ratio) const
{
    // Lighter on a dark background, darker on a light one, in small steps of HSL lightness so
    // the hue stays recognisable (the legend's line shows the roof's own colour).
    const bool darkBackground = background.lightnessF() < 0.5;
    QColor c = color.toHsl();
    for (int step = 0; step < 100 && contrastRatio(c, background) < ratio; ++step) {
        const float lightness
            = std::clamp(c.lightnessF() + (darkBackground ? 0.02F : -0.02F), 0.0F, 1.0F);
        // Greys have no hue (-1).
        c.setHslF(std::max(0.0F, c.hslHueF()), c.hslSaturationF(), lightness, c.alphaF());
    }
    return c.toRgb();
}

const char *ChartTheme::key() const
{
    switch (kind) {
    case Kind::Dark:
        return "dark";
    case Kind::Print:
        return "print";
    case Kind::Light:
        break;
    }
    return "light";
}

namespace chart {

QColor memoryColor(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1:
    case MemoryLevel::LDS: // the scratchpad beside L1
        return QColor(0x6a, 0x3d, 0x9a);
    case MemoryLevel::L2:
        return QColor(0x1f, 0x78, 0xb4);
    case MemoryLevel::L3:
        return QColor(0x1b, 0x8a, 0x7a);
    case MemoryLevel::DRAM:
    case MemoryLevel::HBM:
        return QColor(0xc8, 0x5a, 0x0a);
    case MemoryLevel::PCIe:
    case MemoryLevel::NVLink:
    case MemoryLevel::ICI:
    case MemoryLevel::DCN:
        return QColor(0x70, 0x70, 0x70);
    }
    return Qt::gray;
}

QColor groupColor(std::size_t index)
{
    static const QColor kPalette[] = { QColor(0x1b, 0x9e, 0x77), QColor(0x75, 0x70, 0xb3),
        QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e), QColor(0xd9, 0x8c, 0x00),
        QColor(0xa6, 0x76, 0x1d), QColor(0x1f, 0x78, 0xb4), QColor(0x5e, 0x3c, 0x99) };
    return kPalette[index % std::size(kPalette)];
}

QColor otherGroupsColor()
{
    return QColor(0xa0, 0xa0, 0xa0);
}

QColor computeColor()
{
    return QColor(0x9b, 0x1c, 0x1c);
}

QColor sparseComputeColor()
{
    return QColor(0xb0, 0x88, 0x88);
}

QColor compareColor()
{
    return QColor(0x00, 0x7c, 0x91);
}

QColor impossibleColor()
{
    return QColor(0xd0, 0x00, 0x00);
}

QColor selectionColor()
{
    return QColor(0x10, 0x60, 0xd0);
}

QColor lineColor(const ChartTheme &theme, const QColor &color)
{
    return theme.kind == ChartTheme::Kind::Dark
        ? theme.readable(color, ChartTheme::kMinLineContrast)
        : color;
}

QColor gapFillColor(const ChartTheme &theme, const QColor &color)
{
    QColor fill = lineColor(theme, color);
    fill.setAlpha(theme.kind == ChartTheme::Kind::Dark ? 64 : 44);
    return fill;
}

} // namespace chart

} // namespace ridgepoint
