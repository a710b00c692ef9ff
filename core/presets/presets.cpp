#include "core/presets/presets.h"

#include "core/io/formats/hardware_json.h"
#include "core/presets/resources.h"

#include <algorithm>

namespace ridgepoint {
namespace {

std::string normalized(std::string_view text)
{
    std::string out;
    for (char c : text) {
        if (c == ' ' || c == '-' || c == '_')
            continue;
        out.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c);
    }
    return out;
}

} // namespace

PresetDatabase PresetDatabase::builtin()
{
    PresetDatabase database;
    for (const auto &file : embeddedFilesUnder("hardware/")) {
        const std::string name = "resources/" + std::string(file.path);
        auto result = readHardwareJson(std::string(file.content), name);
        for (auto &machine : result.machines)
            database.add(std::move(machine));
        database.m_diagnostics.insert(
            database.m_diagnostics.end(), result.diagnostics.begin(), result.diagnostics.end());
    }
    return database;
}

void PresetDatabase::add(Hardware hardware)
{
    for (auto &existing : m_machines) {
        if (normalized(existing.name) == normalized(hardware.name)) {
            existing = std::move(hardware);
            return;
        }
    }
    m_machines.push_back(std::move(hardware));
}

ridgepoint::Expected<const Hardware *, std::string> PresetDatabase::find(
    std::string_view query) const
{
    const std::string wanted = normalized(query);
    if (wanted.empty())
        return ridgepoint::Unexpected(std::string("empty hardware name"));
    const auto keys = [](const Hardware &machine) {
        std::vector<std::string> out { normalized(machine.name) };
        for (const auto &alias : machine.aliases)
            out.push_back(normalized(alias));
        return out;
    };
    for (const auto &machine : m_machines) {
        for (const auto &key : keys(machine)) {
            if (key == wanted)
                return &machine;
        }
    }
    std::vector<const Hardware *> candidates;
    for (const auto &machine : m_machines) {
        const auto machineKeys = keys(machine);
        if (std::any_of(machineKeys.begin(), machineKeys.end(),
                [&](const std::string &key) { return key.starts_with(wanted); }))
            candidates.push_back(&machine);
    }
    if (candidates.size() == 1)
        return candidates.front();
    std::string list;
    for (const auto *machine : candidates)
        list += (list.empty() ? "" : ", ") + machine->name;
    if (candidates.size() > 1)
        return ridgepoint::Unexpected(
            "hardware \"" + std::string(query) + "\" is ambiguous: it matches " + list);
    std::string all;
    for (const auto &machine : m_machines)
        all += (all.empty() ? "" : ", ")
            + (machine.aliases.empty() ? machine.name : machine.aliases.front());
    return ridgepoint::Unexpected("no hardware preset matches \"" + std::string(query)
        + "\" (known: " + all + "; or give a machine file)");
}

} // namespace ridgepoint
