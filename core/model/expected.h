// A value or an error message: the subset of std::expected the project uses.
// Our own because clang 14 (the libFuzzer compiler here) cannot compile libstdc++'s <expected>.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ridgepoint {

template<class E = std::string> struct Unexpected {
    E error;
    explicit Unexpected(E e)
        : error(std::move(e))
    { }
};
template<class E> Unexpected(E) -> Unexpected<E>;
Unexpected(const char *)->Unexpected<std::string>;

template<class T, class E = std::string> class [[nodiscard]] Expected
{
public:
    Expected()
        : m_data(std::in_place_index<0>)
    { }
    Expected(const T &value)
        : m_data(std::in_place_index<0>, value)
    { }
    Expected(T &&value)
        : m_data(std::in_place_index<0>, std::move(value))
    { }
    template<class U>
    Expected(Unexpected<U> failure)
        : m_data(std::in_place_index<1>, std::move(failure.error))
    { }

    bool has_value() const noexcept { return m_data.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T &value() & { return std::get<0>(m_data); }
    const T &value() const & { return std::get<0>(m_data); }
    T &&value() && { return std::get<0>(std::move(m_data)); }
    T &operator*() & { return std::get<0>(m_data); }
    const T &operator*() const & { return std::get<0>(m_data); }
    T &&operator*() && { return std::get<0>(std::move(m_data)); }
    T *operator->() { return &std::get<0>(m_data); }
    const T *operator->() const { return &std::get<0>(m_data); }
    template<class U> T value_or(U &&fallback) const &
    {
        return has_value() ? **this : static_cast<T>(std::forward<U>(fallback));
    }

    const E &error() const & { return std::get<1>(m_data); }
    E &error() & { return std::get<1>(m_data); }
    E &&error() && { return std::get<1>(std::move(m_data)); }

private:
    std::variant<T, E> m_data;
};

// Success or an error, with no value.
template<class E> class [[nodiscard]] Expected<void, E>
{
public:
    Expected() = default;
    template<class U>
    Expected(Unexpected<U> failure)
        : m_error(std::move(failure.error))
    { }

    bool has_value() const noexcept { return !m_error.has_value(); }
    explicit operator bool() const noexcept { return has_value(); }
    void value() const { }
    const E &error() const & { return *m_error; }
    E &&error() && { return std::move(*m_error); }

private:
    std::optional<E> m_error;
};

} // namespace ridgepoint
