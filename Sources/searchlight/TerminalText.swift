import Foundation
import PlainText

/// Prints human-readable output on standard output: every control character except line feed and tab is
/// removed first (``PlainText/terminalSafe(_:)``), whatever a page, a header, a robots.txt file or a
/// donation put into the text. JSON output goes through `print` unchanged: its serializer escapes every
/// control character.
func printText(_ text: String) {
    print(PlainText.terminalSafe(text))
}

/// Writes one line to standard error, with control characters removed as ``printText(_:)`` does (error
/// messages quote URLs, file names and the input they refuse).
func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((PlainText.terminalSafe(text) + "\n").utf8))
}
