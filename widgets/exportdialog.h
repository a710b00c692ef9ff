// File → Export chart: format, size in pixels and scale, remembered in the settings. The file
// is written atomically by RooflinePlot::exportTo.
#pragma once

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ridgepoint {

class RooflinePlot;

class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ExportDialog(RooflinePlot *plot, QWidget *parent = nullptr);

    // Writes the chart as the dialog says; an empty string on success, else the reason (also
    // shown in the dialog). accept() calls it and stays open on failure.
    QString exportChart();
    QString fileName() const;
    void accept() override;

private:
    void syncSuffix();
    void updateSizeNote();

    RooflinePlot *m_plot;
    QComboBox *m_format;
    QLineEdit *m_file;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QDoubleSpinBox *m_scale;
    QLabel *m_note;
};

} // namespace ridgepoint
