// An optional value kept on the heap: what std::optional is, for a large type that is mostly
// absent (a session's points: a few are planned workloads of several hundred bytes, the rest
// pay a pointer for nothing). Copies copy the value.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace ridgepoint {

template<typename T> class HeapOptional
{
public:
    HeapOptional() = default;
    HeapOptional(std::nullopt_t) { }
    HeapOptional(const T &value)
        : m_value(std::make_unique<T>(value))
    { }
    HeapOptional(T &&value)
        : m_value(std::make_unique<T>(std::move(value)))
    { }
    HeapOptional(std::optional<T> &&value)
    {
        if (value)
            m_value = std::make_unique<T>(std::move(*value));
    }
    HeapOptional(const HeapOptional &other)
        : m_value(other ? std::make_unique<T>(*other) : nullptr)
    { }
    HeapOptional(HeapOptional &&) noexcept = default;
    HeapOptional &operator=(const HeapOptional &other)
    {
        if (this != &other)
            m_value = other ? std::make_unique<T>(*other) : nullptr;
        return *this;
    }
    HeapOptional &operator=(HeapOptional &&) noexcept = default;
    ~HeapOptional() = default;

    bool has_value() const { return m_value != nullptr; }
    explicit operator bool() const { return has_value(); }
    T &operator*() { return *m_value; }
    const T &operator*() const { return *m_value; }
    T *operator->() { return m_value.get(); }
    const T *operator->() const { return m_value.get(); }
    void reset() { m_value.reset(); }

private:
    std::unique_ptr<T> m_value;
};

} // namespace ridgepoint
