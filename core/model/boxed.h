// A value kept on the heap, so that a struct can hold a type its header only declares (a
// machine's calibration: core/model/hardware.h includes no calibration header, and the files that
// never read one do not rebuild when it changes). It reads like std::optional: empty or one value,
// copies copy the value, `==` compares values. Making one from a value, and `==`, need the type
// complete; copying, moving, reading and destroying one do not.
#pragma once

#include <optional>
#include <utility>

namespace ridgepoint {

template<typename T> class Boxed
{
public:
    Boxed() = default;
    Boxed(std::nullopt_t) { }
    Boxed(T value)
        : m_value(new T(std::move(value)))
        , m_ops(&ops())
    { }
    Boxed(const Boxed &other)
        : m_value(other.m_value ? other.m_ops->copy(*other.m_value) : nullptr)
        , m_ops(other.m_ops)
    { }
    Boxed(Boxed &&other) noexcept
        : m_value(std::exchange(other.m_value, nullptr))
        , m_ops(other.m_ops)
    { }
    Boxed &operator=(Boxed other) noexcept
    {
        std::swap(m_value, other.m_value);
        std::swap(m_ops, other.m_ops);
        return *this;
    }
    ~Boxed() { reset(); }

    void reset() noexcept
    {
        if (m_value)
            m_ops->destroy(m_value);
        m_value = nullptr;
    }
    bool has_value() const { return m_value != nullptr; }
    explicit operator bool() const { return has_value(); }
    T &operator*() { return *m_value; }
    const T &operator*() const { return *m_value; }
    T *operator->() { return m_value; }
    const T *operator->() const { return m_value; }

    friend bool operator==(const Boxed &a, const Boxed &b)
    {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }

private:
    // How to copy and destroy a T, taken where one was made (where T is complete).
    struct Ops {
        T *(*copy)(const T &);
        void (*destroy)(T *);
    };
    static T *copyOf(const T &value) { return new T(value); }
    static void destroyOf(T *value) { delete value; }
    static const Ops &ops()
    {
        static constexpr Ops kOps { &copyOf, &destroyOf };
        return kOps;
    }

    T *m_value = nullptr;
    const Ops *m_ops = nullptr;
};

} // namespace ridgepoint
