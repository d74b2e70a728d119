#!/usr/bin/env bash
# ctest pkg_version: the version twb prints, project(VERSION) and the top entry of debian/changelog agree.
# usage: test-version.sh TWB PROJECT_VERSION CHANGELOG
set -euo pipefail
twb=$1 project=$2 changelog=$3
program=$("$twb" --version | awk '{ print $NF }')
packaged=$(head -n 1 "$changelog" | sed -n 's/^[^ ]* (\([^)]*\)-[^)-]*).*/\1/p')
echo "twb --version: $program; project(VERSION): $project; debian/changelog: $packaged"
[ "$program" = "$project" ] || { echo "FAIL: twb --version says $program, CMakeLists.txt says $project"; exit 1; }
[ "$packaged" = "$project" ] || { echo "FAIL: add a packaging/debian/changelog entry for $project"; exit 1; }
echo "PASS"
