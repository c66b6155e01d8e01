import Foundation
import InspectorClient

/// A recording a person named on the command line or in the inspector (`open FILE`,
/// `--compare FILE`, `=`): a leading `~` is expanded, as a shell would.
enum RecordingPath {
    /// What can be read of the recording at `path`; what cannot is in the contents' problem.
    static func load(_ path: String) -> Recording.Contents {
        Recording.load(from: URL(fileURLWithPath: (path as NSString).expandingTildeInPath))
    }

    /// Whether nothing in `contents` can be used: the file could not be opened, or it broke
    /// before its first frame. Every command that reads a recording a person names refuses such
    /// a file with exit status 5 (`open`, `export`, `redact`, `rerun`, `diff`, `host --recording`);
    /// a file broken later is used up to where it broke.
    static func isUnreadable(_ contents: Recording.Contents) -> Bool {
        contents.problem?.line == 0 || (contents.frames.isEmpty && contents.problem != nil)
    }
}
