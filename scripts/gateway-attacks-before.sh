#!/usr/bin/env bash
# Runs today's attack tests (test/gateway/hostile-service.test.ts, and the
# refusals of test/gateway/sign-in.test.ts) against the gateway as it was
# before branch gateway-auth was merged: a scratch worktree of HEAD in which
# only deploy/nginx/ and scripts/lib/gateway.ts are put back as they were at
# the merge's first parent. Sandbox, tests and test helpers are this
# checkout's (uncommitted edits included). See docs/gateway-attacks.md.
#
# Expected: every test run fails (the attacks worked), exit status 0 only if
# the runs could be made. Needs nginx (no njs: the old gateway loads none), a
# built add-in in dist/ (or it is built in the scratch copy) and node_modules.
#
#   scripts/gateway-attacks-before.sh [scratch-dir]   (default /tmp/gw-before)
set -euo pipefail

ROOT=$(git rev-parse --show-toplevel)
SCRATCH=${1:-/tmp/gw-before}
cd "$ROOT"

MERGE=$(git log --merges --format=%H --grep="^Merge branch 'gateway-auth'" -n 1)
[ -n "$MERGE" ] || { echo "no merge of branch gateway-auth in this history" >&2; exit 2; }
BEFORE=$(git rev-parse "$MERGE^1")
echo "gateway before the fix: deploy/nginx and scripts/lib/gateway.ts at $BEFORE (first parent of $MERGE)"

[ -e "$SCRATCH" ] && { echo "$SCRATCH exists: remove it (git worktree remove --force $SCRATCH)" >&2; exit 2; }
git worktree add --detach "$SCRATCH" HEAD >/dev/null
cleanup() { git -C "$ROOT" worktree remove --force "$SCRATCH"; }
trap cleanup EXIT

ln -s "$(readlink -f "$ROOT/node_modules")" "$SCRATCH/node_modules"
# Today's sandbox (its hostile switches), tests and helpers, as in this checkout.
cp -a "$ROOT/sandbox/." "$SCRATCH/sandbox/"
cp -a "$ROOT/test/." "$SCRATCH/test/"

cd "$SCRATCH"
# The gateway before the fix, and nothing else.
# (Today's library is the folder scripts/lib/gateway/, and the njs and templates it added are not the old gateway's.)
git rm -rq scripts/lib/gateway
git checkout "$BEFORE" -- deploy/nginx scripts/lib/gateway.ts
git rm -q --ignore-unmatch deploy/nginx/gateway.js deploy/nginx/sign-in.js deploy/nginx/service-tier.js \
  deploy/nginx/sign-in.conf.template deploy/nginx/service-tier.conf.template deploy/nginx/variables.json
git diff --cached --stat HEAD

# Rig start-up only: the old scripts/lib/gateway.ts has no findNjsModule (it needs no njs).
sed -i -e '/^  findNjsModule,$/d' \
  -e 's/^export const NJS_MODULE = findNjsModule();/export const NJS_MODULE = "unused: the gateway before the fix loads no njs";/' \
  test/support/gateway.ts
grep -q 'NJS_MODULE = "unused' test/support/gateway.ts || { echo "could not adapt test/support/gateway.ts" >&2; exit 2; }
# sign-in.test.ts imports checkExposure (its other describe block, not run here), which the old
# lib lacks: transpile without type checking. The gateway ignores the identity option it does not know.
cat > jest.before.config.js <<'EOF'
const base = require("./jest.config.js");
module.exports = {
  ...base,
  transform: { "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.test.json", diagnostics: false }] },
};
EOF

if [ -f "$ROOT/dist/taskpane.html" ]; then
  cp -a "$ROOT/dist" dist
else
  npx webpack --mode production --env target=test
fi

status=0
echo "== hostile-service.test.ts against the gateway before the fix"
npx jest -c jest.before.config.js test/gateway/hostile-service.test.ts --verbose || status=$?
echo "== sign-in.test.ts refusals against the gateway before the fix"
npx jest -c jest.before.config.js test/gateway/sign-in.test.ts -t "refuses a token" --verbose || status=$?
echo "== jest exit status $status (non-zero expected: the tests fail against the old gateway)"
