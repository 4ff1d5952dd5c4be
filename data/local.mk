dist_flows_DATA += data/flows/add-contact.yaml data/flows/wifi-off-on.yaml data/flows/create-note.yaml
dist_pkgdata_DATA += data/prices.json data/irreversible-words.txt
