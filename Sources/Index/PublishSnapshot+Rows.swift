import Bridge
import Store
import URLCanonical
import UniversalLinks

/// The snapshot's rows as the bridge's records, the same for either engine.
extension PublishSnapshot {
    mutating func add(page row: PublishPageRow) {
        // The frontier already holds the page's canonical key (the importer's own key for activity
        // pages): read it rather than parse every URL again.
        let key = row.urlKey ?? canonicalKey(row.url) ?? row.url
        let canonical = row.canonicalURL.flatMap { canonicalKey($0) }
        var version = StableHasher()
        version.combine(row.fetchedAt)
        version.combine(row.changedAt)
        version.combine(canonical ?? "")
        // The crawler stores page rows only for HTML responses (and for gone pages).
        input.pages.append(
            PageRecord(
                url: row.url, key: key, canonicalKey: canonical, httpStatus: row.httpStatus, isHTML: true,
                isIndexable: row.isIndexable, isGone: row.isGone, hasTitle: row.hasTitle, lastSeen: row.fetchedAt,
                version: version.value, origin: row.host))
        if row.finalURL != row.url, let finalKey = canonicalKey(row.finalURL), finalKey != key {
            input.redirects.append(RedirectRecord(fromKey: key, toKey: finalKey))
        }
    }

    mutating func add(redirectFrom from: String, to: String) {
        guard let from = canonicalKey(from), let to = canonicalKey(to) else { return }
        input.redirects.append(RedirectRecord(fromKey: from, toKey: to))
    }

    /// The frontier's key is the same canonical key (the crawler adopts the importer's key for activity
    /// URLs), so a URL the crawler gave up on is found under the activity's own key.
    mutating func add(unreachable row: PublishUnreachableRow) {
        guard let key = row.urlKey ?? canonicalKey(row.url) else { return }
        switch row.cause {
        case .robotsDisallowed: input.robotsDisallowedKeys.append(key)
        case .appNotAssociated: input.notAssociatedKeys.append(key)
        case .failed: input.unreachableKeys.append(key)
        }
    }

    /// The apps an origin's association file names: the apps whose activities may join its pages.
    mutating func add(association row: PublishAssociationRow) {
        let apps = AssociatedApps(bytes: row.body)
        if !apps.bundles.isEmpty { input.associations[row.host] = apps.bundles }
    }

    mutating func add(activity row: PublishActivityRow) {
        input.activities.append(
            ActivityRecord(
                id: row.id, bundleIdentifier: row.bundle,
                // Without a persistent identifier, the store's row id tells activities of one type apart.
                displayID: row.persistentIdentifier.map { "\(row.activityType)/\($0)" }
                    ?? "\(row.activityType)#\(row.id)",
                webpageURL: row.webpageURL, urlKey: row.urlKey, relatedUniqueIdentifier: row.relatedID,
                hasRequiredUserInfo: row.hasUserInfo, expiresAt: row.expiresAt, donors: row.donors,
                lastSeen: row.lastSeen, version: UInt64(bitPattern: row.version)))
    }

    mutating func add(appItem row: PublishAppItemRow) {
        input.items.append(
            AppItemRecord(
                bundleIdentifier: row.bundle, uniqueIdentifier: row.uniqueIdentifier, expiresAt: row.expiresAt,
                lastSeen: row.lastSeen))
    }

    mutating func add(storedCluster row: StoredClusterRow) {
        storedClusters[row.key] = row
    }
}
