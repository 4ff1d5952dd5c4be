/* sim.h - the embedded simulated phone (the default device).
 *
 * A 1080x2400 (configurable) Android-like phone with a launcher and Settings,
 * Contacts, Notes, Clock, Messages and Files apps, rendered in-process with FreeType (DejaVu Sans) into
 * RGBA and served as PNG, with a UI tree in `adb shell uiautomator dump` format.
 * Deterministic for a given seed: sim time advances only with device calls
 * (unless sim.clock = live; ambient.h: the notification of sim.notify_ms).
 * State persists in $AMC_HOME/sim/N/state.json (written atomically after every
 * change) so the phone keeps its contacts, notes and toggles between runs.
 *
 * Fault injection: config sim.faults (env AMC_SIM_FAULTS), e.g.
 * "screenshot:0.2,ui_tree:0.1,latency:200": probability that a screenshot/UI dump
 * fails, and extra milliseconds per call (sim time and real time). */
#ifndef AMC_SIM_H
#define AMC_SIM_H

#include "device/device.h"
#include "image/image.h"

/* Open sim N. Creates the factory state on first use. */
int amc_sim_open(const char *home, int index, const amc_config *cfg, amc_device **out, amc_err *e);
/* The i-th app the sim has installed ("com.android.settings"), NULL past
 * the last: what a fleet host states as the device's apps (host/devcaps.h). */
const char *amc_sim_app_id(size_t i);
/* Restore factory state of sim N (contacts, notes, toggles, screen, clock). */
int amc_sim_reset(const char *home, int index, const amc_config *cfg, amc_err *e);
/* The current state as JSON: {"app","screen","sim_time_ms","wifi","bluetooth",
 * "contacts":[{"name","phone"}],"notes":[{"title","body"}], ...}. Caller frees. */
int amc_sim_state_json(amc_device *d, char **out, amc_err *e);
/* Set the sim's state for a task's set-up: `json` is an object with keys of
 * amc_sim_state_json's document; each given key replaces the factory state's
 * (of this sim's seed, at its current sim time), every other key is the
 * factory's, so {"alarms":[...]} is a factory phone with those alarms. The
 * whole result is checked as state.json is; on error nothing changes
 * (AMC_EUSAGE, e says which key is wrong). Written atomically, like every
 * change. `amc sim state --set FILE` calls it. */
int amc_sim_set_state(amc_device *d, const char *json, size_t len, amc_err *e);
/* Render the current frame as raw RGBA (faster than PNG for tests and settling). */
int amc_sim_render(amc_device *d, amc_image *out, amc_err *e);

/* Text the sim drew on the current frame, one entry per drawn string, with its
 * box; lets tests and the OCR benchmark know the ground truth. Caller frees the
 * JSON string: [{"text","x1","y1","x2","y2","in_tree":bool}]. */
int amc_sim_drawn_text_json(amc_device *d, char **out, amc_err *e);

#endif
