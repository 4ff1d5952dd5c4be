/* sim_int.h - internals shared by the simulated phone's files (not a public API).
 *
 * The sim keeps one state (sim_state, persisted as JSON by state.c). Every
 * frame is a view tree built from that state (screens*.c, out of widgets.c's
 * parts): the same nodes are painted (render.c, text by font.c) and dumped as
 * uiautomator XML (dump.c), and taps hit-test them (input.c), so what a flow
 * reads in the tree is exactly what is drawn where its bounds say.
 *
 * Who calls whom, top down (nothing calls upwards): sim.c; input.c; render.c,
 * dump.c; screens*.c; widgets.c; font.c, state.c. This header holds the types
 * they share and the prototypes of state.c, render.c and dump.c; the others
 * have their own header (font.h, widgets.h, screens.h, input.h). */
#ifndef AMC_SIM_INT_H
#define AMC_SIM_INT_H

#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>

#include "device/sim/font.h"
#include "device/sim/sim.h"
#include "util/strbuf.h"
#include <cjson/cJSON.h>

#define SIM_MAX_STACK 16
#define SIM_MAX_CONTACTS 1000
#define SIM_MAX_NOTES 1000
#define SIM_FIELD_MAX 1024      /* bytes in a one-line field (name, phone, title) */
#define SIM_BODY_MAX 16384      /* bytes in a note body */
#define SIM_TYPE_MAX 4096       /* bytes one type_text call accepts */
#define SIM_TRANSITION_MS 300
#define SIM_NETWORKS 8          /* Wi-Fi networks in range */
#define SIM_MAX_ALARMS 100
#define SIM_MAX_THREADS 200
#define SIM_VOLUME_MAX 15       /* the volume keys' steps, as Android's media stream */
#define SIM_VOLUME_FACTORY 8
#define SIM_MAX_MESSAGES 500    /* per thread */
#define SIM_MAX_FILES 1000

enum sim_screen {
	SCR_LAUNCHER,
	SCR_SETTINGS,
	SCR_WIFI,
	SCR_WIFI_NET,
	SCR_BLUETOOTH,
	SCR_NETWORK,
	SCR_CONNECTED,
	SCR_APPS,
	SCR_NOTIFICATIONS,
	SCR_BATTERY,
	SCR_STORAGE,
	SCR_SOUND,
	SCR_DISPLAY,
	SCR_WALLPAPER,
	SCR_ACCESSIBILITY,
	SCR_SECURITY,
	SCR_LOCATION,
	SCR_ACCOUNTS,
	SCR_WELLBEING,
	SCR_SYSTEM,
	SCR_DATETIME,
	SCR_ABOUT,
	SCR_CONTACTS,
	SCR_CONTACT_EDIT,
	SCR_CONTACT_DETAIL,
	SCR_NOTES,
	SCR_NOTE_EDIT,
	SCR_CLOCK,
	SCR_ALARM_EDIT,
	SCR_MESSAGES,
	SCR_THREAD,
	SCR_COMPOSE,
	SCR_FILES,
	SCR_FILE_DETAIL,
	SCR_COUNT
};

enum sim_toggle {
	TG_WIFI,
	TG_BLUETOOTH,
	TG_DARK,
	TG_AIRPLANE,
	TG_ADAPTIVE_BRIGHTNESS,
	TG_BATTERY_PCT,
	TG_BATTERY_SAVER,
	TG_ADAPTIVE_BATTERY,
	TG_DND,
	TG_VIBRATE,
	TG_LOCATION,
	TG_AUTO_TIME,
	TG_NFC,
	TG_LOCK_NOTIF,
	TG_TALKBACK,
	TG_WELLBEING_BEDTIME,
	TG_DATA_SAVER,
	TG_HOTSPOT,
	TG_AUTO_ROTATE,
	TG_COUNT
};

enum sim_field { F_NONE, F_NAME, F_PHONE, F_TITLE, F_BODY, F_SEARCH, F_TIME, F_LABEL, F_TO, F_MESSAGE, F_COUNT };
enum sim_dialog {
	DLG_NONE,
	DLG_DELETE_CONTACT,
	DLG_DELETE_NOTE,
	DLG_DELETE_ALARM,
	DLG_DELETE_THREAD,
	DLG_DELETE_FILE,
	DLG_PICK,          /* a settings value picker; dialog_arg = enum sim_pick */
	DLG_COUNT
};
/* Settings values chosen from a list (Display page). */
enum sim_pick { PK_SCREEN_TIMEOUT, PK_FONT_SIZE, PK_COUNT };
enum sim_trans { TR_NONE, TR_SLIDE_FWD, TR_SLIDE_BACK, TR_FADE };

typedef struct sim_entry {
	int screen;
	int arg;     /* contact/note/network index, -1 for "new" */
	int scroll;  /* px scrolled in the screen's list */
} sim_entry;

/* What one frame shows: a screen plus the overlays that belong to it. */
typedef struct sim_view {
	sim_entry e;
	int dialog, dialog_arg;
	int focus;   /* enum sim_field */
	int kb;      /* soft keyboard shown */
} sim_view;

typedef struct sim_contact {
	char *name, *phone;
	int favorite;
} sim_contact;

typedef struct sim_alarm {
	int hour, minute;
	char *label;
	int enabled;
} sim_alarm;

typedef struct sim_msg {
	int out;     /* 1: sent by the phone's owner, 0: received */
	char *text;
} sim_msg;

typedef struct sim_thread {
	char *contact;
	sim_msg *msgs;
	int nmsgs;
	int unread;
} sim_thread;

typedef struct sim_file {
	char *name;
	char *modified;   /* "2026-01-12" */
	char *content;    /* first line of a document, caption of a picture: drawn only */
	int size_kb;
	int starred;
} sim_file;

typedef struct sim_note {
	char *title, *body;
} sim_note;

typedef struct sim_state {
	long long seed;
	long long time_ms;   /* sim time since 2026-01-15 09:41:00 */
	uint64_t rng;        /* fault-injection PRNG state */
	sim_entry stack[SIM_MAX_STACK];
	int depth;
	int dialog, dialog_arg;
	int focus;
	int kb_hidden;       /* focused field but keyboard dismissed with back */
#define SIM_SELECTION_BG 0xB3D4FCFFu /* behind a field's selected text */
	int selected;        /* the focused field's text is all selected (a long press on it): typing replaces it */
	amc_sb f_name, f_phone, f_title, f_body;
	int form_error;      /* "Name is required" shown */
	int toggles[TG_COUNT];
	int wifi_connected;  /* network index, -1 none */
	int battery_start;
	sim_contact *contacts;
	int ncontacts;
	sim_note *notes;
	int nnotes;
	/* Clock, Messages and Files (state_apps.c), the search box, the new forms'
	 * fields and the settings values chosen from a list. */
	sim_alarm *alarms;
	int nalarms;
	sim_thread *threads;   /* newest first */
	int nthreads;
	sim_file *files;       /* sorted by name */
	int nfiles;
	amc_sb f_search, f_time, f_label, f_to, f_message;
	int picks[PK_COUNT];
	/* set_device: the screen's rotation (Android's user_rotation, 0-3; s->w
	 * and s->h are swapped in landscape) and the mocked location. */
	int orientation;
	int volume;            /* the volume keys' level, 0-15 (factory 8), for checks to read */
	int has_location;
	double lat, lon;
	/* launchApp: the permissions and launch arguments each app was last
	 * given, {"APP": {...}} as JSON text (owned; NULL: none yet) */
	char *permissions, *launch_args;
	/* ambient.c: the heads-up notification's sim time (0: none armed) and,
	 * with sim.clock live, the wall clock (ms since 1970) the last call ended */
	long long notify_due;
	long long wall_ms;
	/* Screen change in progress: the old view and when it started. */
	int tr_kind;
	long long tr_start;
	sim_view tr_from;
} sim_state;

/* ---- view tree (built by screens*.c from widgets.c's parts) ---- */
enum {
	VF_CLICKABLE = 1u << 0,
	VF_CHECKABLE = 1u << 1,
	VF_CHECKED = 1u << 2,
	VF_FOCUSABLE = 1u << 3,
	VF_FOCUSED = 1u << 4,
	VF_SCROLLABLE = 1u << 5,
	VF_LONGCLICK = 1u << 6,
	VF_PASSWORD = 1u << 7,
	VF_SELECTED = 1u << 8,
	VF_DISABLED = 1u << 9,
	VF_NOTREE = 1u << 10,   /* painted only (status bar, keyboard, decoration) */
	VF_BOLD = 1u << 11,
	VF_CENTER = 1u << 12,   /* paint text centred in the bounds */
	VF_NOCLIP = 1u << 13,   /* children are not clipped to this node (decoration) */
	VF_PARENT_TEXT = 1u << 14 /* painted string is the parent's text (launcher label) */
};

enum paint_kind {
	P_NONE,
	P_RECT,      /* fill, corner radius `radius` */
	P_CIRCLE,    /* filled circle inscribed in the bounds */
	P_TEXT,      /* one line of `ptext`, ellipsized to the bounds' width */
	P_BLOCK,     /* wrapped multi-line `ptext` (note body), caret when focused */
	P_SWITCH,
	P_FIELD,     /* outlined text field: hint, text, caret */
	P_WIFI,      /* status-bar Wi-Fi fan */
	P_BATTERY,
	P_SCRIM,     /* dims everything painted so far */
	P_LINE_ICON, /* simple icons drawn with shapes (icon: 1 person, 2 plus, 3 search, 4 note, 5 wifi) */
	P_GRADIENT   /* vertical gradient from bg (top) to fg (bottom) */
};

enum sim_action {
	A_NONE,
	A_ABSORB,        /* modal surface: eats taps */
	A_BACK,
	A_OPEN,          /* a1 = screen, a2 = arg */
	A_LAUNCH,        /* a1 = screen of the app's main page */
	A_TOGGLE,        /* a1 = toggle */
	A_FOCUS,         /* a1 = field */
	A_SAVE_CONTACT,
	A_EDIT_CONTACT,
	A_ASK_DELETE,    /* a1 = dialog kind, a2 = index */
	A_DLG_CANCEL,
	A_DLG_CONFIRM,
	A_WIFI_CONNECT,  /* a1 = network */
	A_WIFI_FORGET,
	A_FAVORITE,      /* a1 = contact */
	A_ALARM_TOGGLE,  /* a1 = alarm */
	A_SAVE_ALARM,
	A_SEND,
	A_PICK_OPEN,     /* a1 = enum sim_pick */
	A_PICK_SET,      /* a1 = enum sim_pick, a2 = value */
	A_FILE_STAR,     /* a1 = file */
	A_FILL_TO,       /* a1 = contact: the recipient field gets the name */
	A_NOTIFY,        /* the heads-up notification (ambient.c): opens Messages */
	A_KEY_CHAR,      /* a1 = code point; the keyboard keys stay last: vtree_scroll_hit treats them as modal */
	A_KEY_BKSP,
	A_KEY_ENTER,
	A_KEY_HIDE
};

typedef struct vnode {
	int parent, first, last, next;
	int x1, y1, x2, y2;          /* layout bounds, screen coordinates */
	const char *cls;
	char *text;                   /* text attribute (malloc'd, may be NULL) */
	const char *rid;
	char *desc;                   /* content-desc (malloc'd, may be NULL) */
	unsigned flags;
	int act, a1, a2;
	int paint;
	uint32_t fg, bg;              /* 0xRRGGBBAA */
	uint32_t fg2, accent;         /* secondary text/outline, focus colour */
	const char *hint;             /* hint of a text field (painted, not dumped) */
	int radius, font_px;
	char *ptext;                  /* what is painted (malloc'd, may be NULL) */
	int icon;                     /* P_LINE_ICON kind */
} vnode;

typedef struct vtree {
	vnode *n;
	int count, cap;
	const char *pkg;
	int scroll_node;   /* index of the scrollable list or -1 */
	int scroll_max;    /* how far it can scroll */
	int dump_root;     /* node the UI dump starts at (a dialog's window), 0 otherwise */
} vtree;

typedef struct drawn_text {
	char *text;
	int x1, y1, x2, y2;
	int in_tree;
} drawn_text;

typedef struct sim {
	amc_device dev;
	int index;
	int w, h;
	double dp;            /* px per dp: w / 411.43, as a 1080 px wide 420 dpi phone */
	char dir[PATH_MAX];
	char path[PATH_MAX];
	double fault_screenshot, fault_ui_tree;
	int latency_ms;
	int vanish_after;     /* sim.faults vanish:N: gone after N device calls (0: never) */
	int vanish_ms;        /* ... for this long (vanish_ms:MS), then back */
	long calls;           /* device calls so far (this process) */
	int notify_ms;        /* sim.notify_ms: the notification after an app opens (ambient.h); 0 off */
	int live;             /* sim.clock = live: real time between calls passes on the sim */
	long long vanished_at; /* sim time (ms) when it went, -1 before */
	sim_state st;
	struct stat seen;     /* state.json as we last wrote or read it */
	sim_font *font;
	drawn_text *drawn;
	int ndrawn, capdrawn;
	struct sim_rec *rec;  /* a screen recording in progress (record.c); NULL: none */
} sim;

/* record.c: startRecording/stopRecording. Every distinct frame the sim
 * renders while recording is kept (compressed) with its sim time; the stop
 * hands them over as an animated PNG. */
int sim_record_start(amc_device *d, amc_err *e);
int sim_record_stop(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
		    amc_err *e);
/* A frame just rendered: kept when a recording runs and it differs from the last. */
void sim_record_frame(sim *s, const amc_image *img);
void sim_record_free(sim *s);

/* state.c */
void sim_state_factory(sim_state *st, long long seed);
void sim_state_free(sim_state *st);
char *sim_state_to_json(const sim *s);            /* caller frees */
int sim_state_from_json(sim *s, const char *text, size_t len, amc_err *e);
int sim_state_load(sim *s, amc_err *e);           /* 1: no file yet */
int sim_state_save(sim *s, amc_err *e);
const char *sim_screen_name(int screen);
/* The sim's apps (state.c): its package, the screen it opens on, and its
 * own screens first..last. */
typedef struct sim_app {
	const char *pkg;
	int screen;
	int first, last;
} sim_app;
const sim_app *sim_apps(size_t *n);
/* The app with this package; NULL: not installed. */
const sim_app *sim_app_of(const char *pkg);
/* The package of the app a screen belongs to. */
const char *sim_screen_package(int screen);
const char *sim_toggle_name(int t);
/* Put app `pkg`'s data back to factory (contacts, notes, or Settings'
 * toggles and Wi-Fi); -1 for a package the sim does not have. */
int sim_state_clear_app(sim_state *st, const char *pkg);
/* Sort contacts by name: ASCII case-insensitive, then code points; stable. */
void sim_contacts_sort(sim_state *st);

typedef struct sim_network {
	const char *name, *security, *band;
	int secure;
} sim_network;

int sim_network_count(void);                      /* SIM_NETWORKS */
const sim_network *sim_network_get(int i);        /* NULL when out of range */
const char *sim_network_name(int i);              /* "" when out of range */
/* Signal level of network i, 0 (excellent) to 3 (weak): fixed per seed. */
int sim_network_signal(const sim *s, int i);
/* Battery percent: drains 1% per 6 sim minutes from battery_start, never below 5. */
int sim_battery(const sim *s);
/* Sim time as "HH:MM", and the date as "Thu, Jan 15" or (long_form) "January 15, 2026". */
void sim_clock(const sim *s, char *out, size_t n);
void sim_date(const sim *s, char *out, size_t n, int long_form);

/* state_apps.c: the Clock, Messages and Files data, the pickers. */
void sim_apps_factory(sim_state *st);
void sim_apps_free(sim_state *st);
void sim_apps_to_json(const sim_state *st, cJSON *o);
/* Read the apps' keys of o into st (which holds the factory's); 0 or -1 with e set. */
int sim_apps_from_json(sim_state *st, const cJSON *o, amc_err *e);
void sim_alarms_sort(sim_state *st);
void sim_files_sort(sim_state *st);
/* A file added to the Files app (addMedia): name, size, caption. */
void sim_files_add(sim_state *st, const char *name, int kb, const char *content);
int sim_pick_count(int pick);
const char *sim_pick_value(int pick, int v);   /* "" when out of range */
const char *sim_pick_title(int pick);
/* "HH:MM" or "H:MM" -> hour and minute; 0, or -1 when it is not a time of day. */
int sim_parse_time(const char *s, int *h, int *m);
/* Index of the thread with this contact (exact), -1 none. */
int sim_thread_find(const sim_state *st, const char *contact);
void sim_thread_add_msg(sim_thread *t, int out, const char *text);
/* A thread for contact at the top (made when missing, moved up when there); its index (0). */
int sim_thread_touch(sim_state *st, const char *contact);

/* render.c */
int sim_render_frame(sim *s, amc_image *img, amc_err *e);

/* dump.c */
char *sim_dump_xml(const sim *s, size_t *len);
/* Append ` name="value"` escaped as Android's dumper writes it. */
void sim_xml_attr(amc_sb *sb, const char *name, const char *value);

#endif
