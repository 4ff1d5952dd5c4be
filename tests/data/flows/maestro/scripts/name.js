// runScript: FIRST comes from the flow's env:, LAST from runScript's env:.
output.name = FIRST + ' ' + LAST;
output.calls = (output.calls || 0) + 1;
