import Crypto
import Donations
import Foundation
internal import StrictJSON
import URLCanonical

/// Keyed hashes of what an activity is and who donated it (SPEC §4: below the engagement threshold
/// the store keeps only "a salted hash of the canonical URL or identity and the donor").
///
/// HMAC-SHA-256 with the store's own random key, cut to 128 bits: enough to never collide among the
/// records of one store, and without the key a hash cannot be checked against a guessed URL.
// `@unchecked`: `HMAC<SHA256>` is a plain value (the keyed hash state) that swift-crypto does not mark
// `Sendable`; a copy shares nothing with the original.
struct DonationHasher: @unchecked Sendable {
    /// The state after absorbing the key: copied for each hash instead of re-keying every time.
    private let keyed: HMAC<SHA256>

    init(salt: [UInt8]) {
        keyed = HMAC<SHA256>(key: SymmetricKey(data: salt))
    }

    /// 16 bytes of HMAC-SHA-256 over `text`.
    func hash(_ text: String) -> Data {
        var state = keyed
        var text = text
        text.withUTF8 { state.update(data: UnsafeRawBufferPointer($0)) }
        return Data(state.finalize().prefix(16))
    }
}

/// What makes two donated activities "the same activity" for counting donors and deduplication.
struct ActivityIdentity {
    /// The identity text (hashed before it is stored anywhere).
    var text: String
    /// The canonical key of `webpageURL`, when the activity has one.
    var urlKey: String?

    /// The identity of `activity`: its canonical `webpageURL` within the app; else its activity type
    /// and `persistentIdentifier`; else its activity type and the values of its required user info.
    /// `nil` when it has none of them (nothing could open it, so it is never published).
    init?(_ activity: UserActivityRecord) {
        let bundle = activity.bundleIdentifier
        if let url = activity.webpageURL {
            let key = canonicalKey(url) ?? url
            self.text = "url\u{0}\(bundle)\u{0}\(key)"
            self.urlKey = key
        } else if let persistent = activity.persistentIdentifier, !persistent.isEmpty {
            self.text = "pid\u{0}\(bundle)\u{0}\(activity.activityType)\u{0}\(persistent)"
        } else if let keys = activity.requiredUserInfoKeys, !keys.isEmpty {
            self.text = "info\u{0}\(bundle)\u{0}\(activity.activityType)\u{0}\(Self.userInfoText(activity))"
        } else {
            return nil
        }
    }

    /// The required user info as JSON with sorted keys (stable for equal values: the reader gave every
    /// value its canonical form, see ``UserActivityRecord/userInfo``).
    static func userInfoText(_ activity: UserActivityRecord) -> String {
        guard let info = activity.userInfo, !info.isEmpty else { return "{}" }
        return JSONValue.object(info.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
            .serialized()
    }
}
