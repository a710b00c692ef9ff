// Reads a points file without freezing the window: small files on the GUI thread, larger ones
// (settings::backgroundReadBytes) on a worker thread behind a progress dialog with Cancel.
// The result comes back to the GUI thread; a cancelled read is discarded. The profilers' files
// are read with the options the user chose (File ▸ Import options…).
#pragma once

#include "core/io/readers.h"

#include <QString>

class QWidget;

namespace ridgepoint {

struct PointsLoad {
    enum class Status { Read, Cancelled, Unreadable };
    Status status = Status::Unreadable;
    PointsFileResult result; // when Read
    QString error; // when Unreadable: "x.csv: not found", ...
    bool onWorkerThread = false;
};

// The reader options File ▸ Import options… chose (settings::import*), for every points or
// machine file the window reads. A value a hand-edited settings file made unusable is the
// reader's default instead.
ReadOptions importReadOptions();
void setImportReadOptions(const ReadOptions &options);

// Reads with `options`; without, with importReadOptions().
PointsLoad loadPointsFile(QWidget *parent, const QString &fileName, const ReadOptions &options);
PointsLoad loadPointsFile(QWidget *parent, const QString &fileName);

// What the caller shows before using a read: nothing when every row was used; a warning
// (`refusedTitle`, `refusedText` and the first reasons) and false when no point is usable; when
// rows were skipped, their count and reasons, then `question` (its %1 is the number of usable
// points), and true only if the user says yes. Nothing partial is merged silently.
bool confirmPointsRead(QWidget *parent, const QString &fileName, const PointsReadResult &result,
    const QString &refusedTitle, const QString &refusedText, const QString &question);

} // namespace ridgepoint
