#!/usr/bin/env bash
# Runs a command beside N CPU-bound processes (CI: the test suites must stay green on a busy
# machine, since no test may depend on timing):
#
#   scripts/under-load.sh 3 npx jest
#
# The busy processes are killed by a trap when the command ends, whatever its outcome; each
# also ends by itself once this script is gone (if it was killed before its trap could run).
# Exits with the command's status and prints how long it took.
set -euo pipefail
if [ "$#" -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
	echo "usage: scripts/under-load.sh <busy processes> <command> [arguments…]" >&2
	exit 2
fi
count=$1
shift

busy=()
stop_busy() {
	if [ "${#busy[@]}" -gt 0 ]; then kill "${busy[@]}" 2>/dev/null || true; fi
}
trap stop_busy EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Spins; every 10^7 turns (a fraction of a second) it checks that its parent is still this
# script (once the script is gone, however it ended, the process has another parent; Linux's
# /proc tells the current one, where process.ppid keeps the first).
spin='const fs = require("node:fs");
const parentNow = () => {
	try {
		return fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[1];
	} catch {
		return String(process.ppid); // no /proc (macOS): the trap alone ends it
	}
};
const parent = parentNow();
for (let i = 1; ; i++) if (i % 1e7 === 0 && parentNow() !== parent) process.exit(0);'
for _ in $(seq 1 "$count"); do
	node -e "$spin" &
	busy+=("$!")
done
echo "under-load: ${count} CPU-bound processes (${busy[*]}) beside: $*"

started=$(date +%s)
status=0
"$@" || status=$?
echo "under-load: '$*' took $(($(date +%s) - started)) s beside ${count} CPU-bound processes, exit ${status}"
exit "$status"
