dist_flows_DATA += data/flows/add-contact.yaml data/flows/wifi-off-on.yaml data/flows/create-note.yaml
dist_pkgdata_DATA += data/prices.json data/irreversible-words.txt

# The task suite's templates (docs/tasks.md), installed to $(pkgdatadir)/tasks.
tasksdir = $(pkgdatadir)/tasks
dist_tasks_DATA = \
	data/tasks/alarm-create.yaml \
	data/tasks/alarm-delete.yaml \
	data/tasks/alarm-edit-time.yaml \
	data/tasks/alarm-toggle.yaml \
	data/tasks/contact-add.yaml \
	data/tasks/contact-delete-denied.yaml \
	data/tasks/contact-delete.yaml \
	data/tasks/contact-edit-phone.yaml \
	data/tasks/contact-favorite.yaml \
	data/tasks/display-toggle-on.yaml \
	data/tasks/file-delete.yaml \
	data/tasks/file-star.yaml \
	data/tasks/info-alarm-time.yaml \
	data/tasks/info-battery-level.yaml \
	data/tasks/info-build-number.yaml \
	data/tasks/info-contact-phone.yaml \
	data/tasks/info-file-size.yaml \
	data/tasks/info-last-message.yaml \
	data/tasks/info-note-body.yaml \
	data/tasks/info-picture.yaml \
	data/tasks/message-new.yaml \
	data/tasks/message-reply.yaml \
	data/tasks/multi-alarm-from-message.yaml \
	data/tasks/multi-share-phone.yaml \
	data/tasks/note-create.yaml \
	data/tasks/note-delete.yaml \
	data/tasks/note-search.yaml \
	data/tasks/settings-battery-switch.yaml \
	data/tasks/settings-bluetooth.yaml \
	data/tasks/settings-font-size.yaml \
	data/tasks/settings-location.yaml \
	data/tasks/settings-network-switch.yaml \
	data/tasks/settings-screen-timeout.yaml \
	data/tasks/settings-sound-switch.yaml \
	data/tasks/settings-talkback.yaml \
	data/tasks/settings-wifi.yaml \
	data/tasks/thread-delete.yaml
