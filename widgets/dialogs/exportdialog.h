// File → Export image…: format, file, title, chart alone or with the points table, size (in
// pixels, inches or centimetres), PNG resolution and whether the session is embedded; all
// remembered in the settings. The file is written atomically by ChartExporter::exportTo. A preset
// ("Slide 16:9") fills in the size and resolution and, while chosen, exports with its font scale
// and the legend below the plot (slideExportOptions()); it is not remembered.
#pragma once

#include <QByteArray>
#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ridgepoint {

class RooflinePlot;
struct ExportOptions;
struct PictureSession;

class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ExportDialog(RooflinePlot *plot, QWidget *parent = nullptr);

    // The session to embed when the box is checked (pictureSession()). Without one, or when
    // it is larger than ExportOptions::kMaxEmbeddedSession, nothing is embedded and the dialog
    // says why, with the session's size (or what it is known to exceed).
    void setSession(const PictureSession &session);
    // A session document as writeSessionJson wrote it.
    void setSession(const QByteArray &json);

    // What the dialog would export now: the size in logical pixels, the PNG scale = dpi / 96.
    ExportOptions options() const;
    // Writes the chart as the dialog says; an empty string on success, else the reason (also
    // shown in the dialog). accept() calls it and stays open on failure.
    [[nodiscard]] QString exportChart();
    QString fileName() const;
    void accept() override;

private:
    void setUpFromSettings();
    void setUpNotes();
    void setUpPreset();
    void applyPreset();
    void connectControls(QPushButton *browse);
    void layOut(QPushButton *browse);
    void syncSuffix();
    void changeUnit();
    void updateNotes();
    int logicalPixels(const QDoubleSpinBox *box) const;
    bool canEmbed() const;

    RooflinePlot *m_plot;
    QByteArray m_session;
    qsizetype m_sessionBytes = 0; // m_session's size, or what a session left out exceeds
    qsizetype m_sessionPoints = 0;
    double m_unitPixels = 1.0; // logical pixels per unit of the size boxes
    QComboBox *m_preset;
    QComboBox *m_format;
    QLineEdit *m_file;
    QLineEdit *m_title;
    QComboBox *m_contents;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QComboBox *m_unit;
    QSpinBox *m_dpi;
    QLabel *m_note;
    QCheckBox *m_embed;
    QLabel *m_sessionNote;
    QLabel *m_error;
};

} // namespace ridgepoint
