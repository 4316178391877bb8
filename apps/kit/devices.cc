/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "devices.h"

#include <stdexcept>

namespace gpufec {
namespace app {

std::vector<device_spec> parse_devices(const std::string& text)
{
    if (text == "all") {
        std::vector<device_spec> v;
        for (const auto& g : cuda_devices()) {
            device_spec d;
            d.type = device_spec::kind::cuda;
            d.index = g.index;
            v.push_back(d);
        }
        if (v.empty())
            throw std::invalid_argument("--devices all: this machine has no usable CUDA GPU "
                                        "(use cpu, or auto)");
        return v;
    }
    std::vector<device_spec> v;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        std::string item = text.substr(at, comma - at);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (item.empty())
            throw std::invalid_argument("--devices: '" + text + "' has an empty item");
        try {
            v.push_back(device_spec::parse(item));
        } catch (const std::exception& e) {
            throw std::invalid_argument("--devices: " + std::string(e.what()));
        }
        at = comma + 1;
    }
    return v;
}

std::vector<device_spec> devices_for_process(const std::vector<device_spec>& devices,
                                             int local_rank,
                                             int local_size)
{
    if (devices.empty())
        throw std::invalid_argument("--devices: no device");
    if (local_size <= 1)
        return devices;
    if (devices.size() == 1 && devices[0].type == device_spec::kind::automatic) {
        // auto, several processes on this host: one GPU each while there are GPUs
        const auto gpus = cuda_devices();
        if (gpus.empty())
            return devices;
        device_spec d;
        d.type = device_spec::kind::cuda;
        d.index = gpus[size_t(local_rank) % gpus.size()].index;
        return { d };
    }
    return { devices[size_t(local_rank) % devices.size()] };
}

} // namespace app
} // namespace gpufec
