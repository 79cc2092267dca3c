#include "fleet/node_script.h"

namespace dlenv::fleet {

const std::string& node_script()
{
    // Every step runs whatever the one before gave, so a node always reports, and the
    // report verify wrote is pushed whether it passed or not.
    static const std::string script = R"(set -u
node=${SLURMD_NODENAME:-$(hostname)}
store=$DLENV_FLEET_STORE
set --
if [ "$DLENV_FLEET_INSECURE" = 1 ]; then set -- --insecure; fi
"$DLENV_FLEET_DLENV" pull "$@" --store "$store" "$DLENV_FLEET_IMAGE"
rc=$?
if [ "$rc" -eq 0 ]; then
  "$DLENV_FLEET_DLENV" verify --store "$store" --tier "$DLENV_FLEET_TIERS" "$DLENV_FLEET_STORED"
  rc=$?
  "$DLENV_FLEET_DLENV" push "$@" --store "$store" "$DLENV_FLEET_STORED" "$DLENV_FLEET_PUSH"
  pushed=$?
  if [ "$rc" -eq 0 ]; then rc=$pushed; fi
fi
rm -rf "$store"
echo "dlenv-fleet-result $node $rc"
exit "$rc"
)";
    return script;
}

std::vector<std::pair<std::string, std::string>> node_environment(const FleetJob& job, const std::string& dlenv)
{
    return {
        { "DLENV_FLEET_DLENV", dlenv },
        { "DLENV_FLEET_IMAGE", pinned_reference(job) },
        { "DLENV_FLEET_STORED", stored_image(job) },
        { "DLENV_FLEET_TIERS", tier_list(job) },
        { "DLENV_FLEET_PUSH", job.registry.familiar_name() + ":" + job.registry.tag },
        { "DLENV_FLEET_INSECURE", job.insecure ? "1" : "0" },
    };
}

std::string shell_quote(const std::string& value)
{
    std::string out = "'";
    for (char c : value)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace dlenv::fleet
