import Donations
import Store

extension ItemDeletion {
    /// The deletion a delete record asks for: by identifiers when it names any, else by domains, else all
    /// of the bundle when `all` is true; a record that asks for none of them deletes nothing.
    init(_ record: DeletionRecord) {
        let scope: Scope =
            if let identifiers = record.uniqueIdentifiers {
                .identifiers(identifiers)
            } else if let domains = record.domainIdentifiers {
                .domains(domains)
            } else if record.all == true {
                .all
            } else {
                .identifiers([])
            }
        self.init(bundle: record.bundleIdentifier, scope: scope)
    }
}
