#!/usr/bin/env bash
# Refreshes the interface's translation sources, resources/translations/workbench_*.ts, from the code:
# the option table's form texts are written to resources/translations/config_options_strings.h (by the
# twb-option-strings tool), then lupdate collects every tr() of ui/ and app/gui and those lists. New
# texts arrive unfinished; translate them in Qt Linguist (linguist resources/translations/workbench_nb.ts)
# or in the file, and commit the .ts. The build turns each .ts into a .qm (lrelease); it never runs lupdate.
# usage: scripts/update-translations.sh [BUILD_DIR]   (default build/; needs qt6-l10n-tools)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
lupdate=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
[ -x "$lupdate" ] || lupdate=$(command -v lupdate6 || command -v lupdate)
tr_dir=$root/resources/translations
cmake --build "$build" --target twb-option-strings
"$build/bin/twb-option-strings" >"$tr_dir/config_options_strings.h.new"
mv "$tr_dir/config_options_strings.h.new" "$tr_dir/config_options_strings.h"
"$lupdate" -no-obsolete -locations none "$root/ui" "$root/app/gui" "$tr_dir/config_options_strings.h" \
  "$tr_dir/qt_strings.h" "$tr_dir/catalogue_strings.h" -ts "$tr_dir"/workbench_*.ts
