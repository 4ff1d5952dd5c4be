# Each area keeps its tests in its own fragment.
include tests/unit/util.mk
include tests/unit/image.mk
include tests/unit/sim.mk
include tests/unit/perception.mk
include tests/unit/storage.mk
include tests/unit/runtime.mk
include tests/unit/flow.mk
include tests/unit/device.mk
include tests/unit/llm.mk
include tests/unit/launch.mk
include tests/unit/mcp.mk
include tests/unit/report.mk
include tests/unit/fleet.mk
include tests/unit/suite.mk
include tests/integration/local.mk
include tests/hardening/local.mk
include tests/fuzz/local.mk
