/* screens.h - the sim's apps as view trees (private to the sim): one frame's
 * view is read from the state and built into a tree by screens.c (launcher,
 * dialogs, the soft keyboard, and the choice of screen), which calls one
 * builder per app screen: screens_settings.c, screens_contacts.c,
 * screens_notes.c, screens_clock.c, screens_messages.c, screens_files.c.
 * docs/sim.md is the contract for texts and ids. */
#ifndef AMC_SIM_SCREENS_H
#define AMC_SIM_SCREENS_H

#include "device/sim/widgets.h"

/* What the state shows now: the top screen, its dialog, focus and keyboard. */
void sim_current_view(const sim *s, sim_view *v);
/* Build view v of s into *t (the caller frees it with vtree_free). */
void sim_build(const sim *s, const sim_view *v, vtree *t);

/* Each builds one screen into `content` (the window's content frame). */
void sim_build_settings_main(sim_builder *b, int content, const sim_view *v);
/* A settings sub-page from the page table (network, battery, ...); builds
 * nothing for a screen that has no page. */
void sim_build_page(sim_builder *b, int content, const sim_view *v);
void sim_build_wifi(sim_builder *b, int content, const sim_view *v);
void sim_build_wifi_net(sim_builder *b, int content, const sim_view *v);
void sim_build_bluetooth(sim_builder *b, int content, const sim_view *v);
void sim_build_contacts(sim_builder *b, int content, const sim_view *v);
void sim_build_contact_edit(sim_builder *b, int content, const sim_view *v);
void sim_build_contact_detail(sim_builder *b, int content, const sim_view *v);
void sim_build_notes(sim_builder *b, int content, const sim_view *v);
void sim_build_note_edit(sim_builder *b, int content, const sim_view *v);
void sim_build_clock(sim_builder *b, int content, const sim_view *v);
void sim_build_alarm_edit(sim_builder *b, int content, const sim_view *v);
void sim_build_messages(sim_builder *b, int content, const sim_view *v);
void sim_build_thread(sim_builder *b, int content, const sim_view *v);
void sim_build_compose(sim_builder *b, int content, const sim_view *v);
void sim_build_files(sim_builder *b, int content, const sim_view *v);
void sim_build_file_detail(sim_builder *b, int content, const sim_view *v);
/* A search box at y for the list below it (F_SEARCH); returns the y under it. */
int sim_search_box(sim_builder *b, int parent, int y, const char *hint, const char *rid, int focus);
/* Whether `hay` contains the search box's text (ASCII case-insensitive); an empty box matches all. */
int sim_search_match(const sim *s, const char *hay);
/* A text button at the right of the app bar ("Delete"); returns its node. */
int sim_bar_action(sim_builder *b, int parent, const char *text, const char *rid, int act, int a1, int a2);

#endif
