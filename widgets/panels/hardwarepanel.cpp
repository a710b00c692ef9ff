#include "widgets/panels/hardwarepanel.h"

#include "widgets/document/document.h"
#include "widgets/models/ceilingstablemodel.h"

#include <QAbstractTextDocumentLayout>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ridgepoint {
namespace {

// Sizes the name column of the ceilings table at every resize of its viewport.
class NameColumnFit : public QObject
{
public:
    explicit NameColumnFit(QTableView *view)
        : QObject(view)
    {
        QHeaderView *header = view->horizontalHeader();
        view->setMinimumWidth(leastName(view) + header->sectionSizeHint(CeilingsTableModel::Shown)
            + view->fontMetrics().horizontalAdvance(QStringLiteral("1.979 PFLOP/s")) + 24
            + view->verticalScrollBar()->sizeHint().width() + 2 * view->frameWidth());
    }
    static int leastName(const QTableView *view)
    {
        return view->fontMetrics().averageCharWidth() * 12 + 12;
    }
    static void fit(QTableView *view)
    {
        QHeaderView *header = view->horizontalHeader();
        int others = 0;
        for (const int column : { CeilingsTableModel::Shown, CeilingsTableModel::Kind,
                 CeilingsTableModel::Value, CeilingsTableModel::Basis })
            others += header->sectionSize(column);
        header->resizeSection(CeilingsTableModel::Name,
            std::max(leastName(view), view->viewport()->width() - others));
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            fit(static_cast<QTableView *>(parent()));
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

HardwarePanel::HardwarePanel(Document *document, std::vector<Hardware> presets, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_presets(std::move(presets))
    , m_model(new CeilingsTableModel(document, this))
    , m_presetBox(new QComboBox(this))
    , m_compareBox(new QComboBox(this))
    , m_view(new QTableView(this))
    , m_message(new QLabel(this))
    , m_source(new QLabel(this))
    , m_details(new QTextBrowser(this))
{
    for (const auto &machine : m_presets)
        m_presetBox->addItem(QString::fromStdString(machine.name));
    m_presetBox->setAccessibleName(tr("Hardware preset"));
    connect(m_presetBox, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && static_cast<std::size_t>(index) < m_presets.size())
            m_document->selectHardware(m_presets[static_cast<std::size_t>(index)]);
    });

    m_compareBox->addItem(tr("No comparison"));
    for (const auto &machine : m_presets)
        m_compareBox->addItem(QString::fromStdString(machine.name));
    m_compareBox->setAccessibleName(tr("Compare with"));
    connect(m_compareBox, &QComboBox::activated, this, [this](int index) {
        if (index <= 0 || static_cast<std::size_t>(index) > m_presets.size())
            m_document->setCompareHardware(std::nullopt);
        else
            m_document->setCompareHardware(m_presets[static_cast<std::size_t>(index) - 1]);
    });

    // The boxes ask for room for a name of about 22 characters, not for the longest preset's
    // (which made the dock wider than a small window); the list shows whole names.
    for (QComboBox *box : { m_presetBox, m_compareBox }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(22);
        box->view()->setMinimumWidth(box->view()->sizeHintForColumn(0) + 24);
    }

    setUpTable();

    const auto button = [this](const QString &text, const QString &tip, auto slot) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(button(tr("+ Compute"), tr("Add a compute ceiling (a flat roof)"),
        [this] { m_view->selectRow(m_model->addComputeCeiling()); }));
    buttons->addWidget(button(tr("+ Memory"), tr("Add a memory ceiling (a slanted roof)"),
        [this] { m_view->selectRow(m_model->addMemoryCeiling()); }));
    buttons->addWidget(button(tr("Remove"), tr("Remove the selected ceiling"), [this] {
        const QModelIndexList rows = m_view->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            m_model->removeCeiling(rows.front().row());
    }));
    buttons->addStretch(1);

    m_message->setWordWrap(true);
    m_message->setStyleSheet("color: #b00000");
    m_message->hide();
    connect(m_model, &CeilingsTableModel::editRejected, this, [this](const QString &message) {
        m_message->setText(message);
        m_message->show();
    });
    setUpDetails();
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new QLabel(tr("Machine"), this));
    layout->addWidget(m_presetBox);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_message);
    layout->addWidget(m_details);
    layout->addWidget(new QLabel(tr("Compare with"), this));
    layout->addWidget(m_compareBox);
    layout->addWidget(m_source);

    connect(document, &Document::hardwareChanged, this, &HardwarePanel::showMachine);
    connect(document, &Document::compareHardwareChanged, this, &HardwarePanel::showCompare);
    showMachine();
    showDetails();
}

void HardwarePanel::showDetails()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    const QString html = current.isValid() ? m_model->provenance(current.row(), true) : QString();
    m_details->setHtml(html.isEmpty()
            ? tr("<i>Select a ceiling to see where its figure comes from.</i>")
            : QStringLiteral("<small>%1</small>").arg(html));
}

void HardwarePanel::setUpDetails()
{
    // The selected ceiling's provenance: read-only, its address a link to the source.
    m_details->setAccessibleName(tr("Ceiling provenance"));
    m_details->setOpenExternalLinks(true);
    // As tall as its text, from two lines ("Select a ceiling …") to nine (then it scrolls): the
    // ceilings above keep the room the window has (a box of nine lines for one line of text
    // hid the memory ceilings at 1600 × 950 once the Kernels dock had its share).
    connect(m_details->document()->documentLayout(),
        &QAbstractTextDocumentLayout::documentSizeChanged, this, [this](const QSizeF &text) {
            const int line = m_details->fontMetrics().height();
            const int frame = 2 * m_details->frameWidth();
            m_details->setMaximumHeight(std::clamp(
                static_cast<int>(std::ceil(text.height())) + frame, 2 * line + frame, 9 * line));
        });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &HardwarePanel::showDetails);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &HardwarePanel::showDetails);
    connect(m_model, &QAbstractItemModel::modelReset, this, &HardwarePanel::showDetails);
}

void HardwarePanel::setUpTable()
{
    m_view->setModel(m_model);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; the arrows move in it
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::AnyKeyPressed);
    m_view->horizontalHeader()->setSectionResizeMode(
        CeilingsTableModel::Shown, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(
        CeilingsTableModel::Kind, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(
        CeilingsTableModel::Value, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(
        CeilingsTableModel::Basis, QHeaderView::ResizeToContents);
    // The names keep about 12 characters however narrow the dock ("FP64 vector", "L2 cache")
    // rather than being elided to "F…": the name column takes what the others leave but never
    // less, the value and its basis stand beside it and the kind (which the name mostly says) comes
    // last, scrolled to when the dock is narrow.
    m_view->horizontalHeader()->setSectionResizeMode(
        CeilingsTableModel::Name, QHeaderView::Interactive);
    m_view->horizontalHeader()->moveSection(
        m_view->horizontalHeader()->visualIndex(CeilingsTableModel::Kind),
        CeilingsTableModel::ColumnCount - 1); // last: after the value and its basis
    m_view->viewport()->installEventFilter(new NameColumnFit(m_view));
    connect(m_model, &QAbstractItemModel::modelReset, m_view,
        [this] { QTimer::singleShot(0, m_view, [this] { NameColumnFit::fit(m_view); }); });
    m_view->setToolTip(
        tr("Double-click a name or a value to edit it: \"3.35 TB/s\", \"989 TFLOP/s\"."));
}

void HardwarePanel::addMachine(const Hardware &hardware)
{
    for (std::size_t i = 0; i < m_presets.size(); ++i) {
        if (m_presets[i].name == hardware.name) {
            m_presets[i] = hardware;
            showMachine();
            return;
        }
    }
    m_presets.push_back(hardware);
    // Before the edited machine's entry, if there is one (showMachine).
    m_presetBox->insertItem(
        static_cast<int>(m_presets.size()) - 1, QString::fromStdString(hardware.name));
    m_compareBox->addItem(QString::fromStdString(hardware.name));
    showMachine();
}

void HardwarePanel::showCompare()
{
    const Hardware *other = m_document->compareHardware();
    if (!other) {
        m_compareBox->setCurrentIndex(0);
        return;
    }
    const QString name = QString::fromStdString(other->name);
    if (m_compareBox->findText(name, Qt::MatchExactly | Qt::MatchCaseSensitive) < 0)
        addMachine(*other);
    m_compareBox->setCurrentIndex(
        m_compareBox->findText(name, Qt::MatchExactly | Qt::MatchCaseSensitive));
}

void HardwarePanel::showMachine()
{
    const Hardware &hw = m_document->hardware();
    const QString name = QString::fromStdString(hw.name);
    const int presets = static_cast<int>(m_presets.size());
    int index = m_presetBox->findText(name, Qt::MatchExactly | Qt::MatchCaseSensitive);
    // An edited machine (or one a session brought) is no preset: it is the picker's last entry,
    // "Custom (from …)", current and drawn like any other choice (a placeholder text is drawn
    // greyed, as if the picker were disabled). Picking it again changes nothing.
    if (index < 0 || index >= presets) {
        if (m_presetBox->count() > presets)
            m_presetBox->setItemText(presets, name);
        else
            m_presetBox->addItem(name);
        index = presets;
    } else if (m_presetBox->count() > presets) {
        m_presetBox->removeItem(presets);
    }
    m_presetBox->setCurrentIndex(index);
    m_message->hide();
    m_source->setText(
        tr("<small>Source: %1</small>").arg(QString::fromStdString(hw.source).toHtmlEscaped()));
}

} // namespace ridgepoint
