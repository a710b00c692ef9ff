// The generic undo command: one value of the document changes from `before` to `after`.
// Most edits are one of these; drags push many with `Preview` and merge into a single step
// until a final push closes it (the Tiled / Glaxnimate pattern).
#pragma once

#include <QUndoCommand>

#include <concepts>
#include <functional>
#include <string>

namespace ridgepoint {

// Command ids: commands merge only with commands of the same id and target.
enum class CommandId { Hardware = 1, WhatIf = 2, QuantMode = 3, Annotations = 4, Baseline = 5 };

class ChangeValueBase : public QUndoCommand
{
public:
    using QUndoCommand::QUndoCommand;
    // False while a drag is still adding to this command.
    bool isCommitted() const { return m_committed; }
    // Esc during a drag: the next undo() restores the old value and drops the command.
    void cancelOnUndo() { m_cancel = true; }

protected:
    bool m_committed = true;
    bool m_cancel = false;
};

template<typename T> class ChangeValue : public ChangeValueBase
{
public:
    using Setter = std::function<void(const T &)>;

    // `target` names the edited object ("point 3"); `committed` false keeps the command open.
    ChangeValue(const QString &text, CommandId id, std::string target, T before, T after,
        Setter setter, bool committed)
        : ChangeValueBase(text)
        , m_id(id)
        , m_target(std::move(target))
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_setter(std::move(setter))
    {
        m_committed = committed;
    }

    int id() const override { return static_cast<int>(m_id); }

    void redo() override { m_setter(m_after); }

    void undo() override
    {
        m_setter(m_before);
        if (m_cancel)
            setObsolete(true); // QUndoStack deletes an obsolete command after undoing it
    }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = dynamic_cast<const ChangeValue *>(other);
        if (!next || m_committed || next->m_target != m_target)
            return false;
        m_after = next->m_after;
        m_committed = next->m_committed;
        if (!next->text().isEmpty())
            setText(next->text());
        // A drag that ends where it started leaves no step behind.
        if constexpr (std::equality_comparable<T>) {
            if (m_committed && m_after == m_before)
                setObsolete(true);
        }
        return true;
    }

    const T &before() const { return m_before; }
    const T &after() const { return m_after; }

private:
    CommandId m_id;
    std::string m_target;
    T m_before;
    T m_after;
    Setter m_setter;
};

} // namespace ridgepoint
