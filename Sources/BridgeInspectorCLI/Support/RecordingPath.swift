import Foundation
import InspectorClient

/// A recording a person named on the command line or in the inspector (`open FILE`,
/// `--compare FILE`, `=`): a leading `~` is expanded, as a shell would.
enum RecordingPath {
    /// What can be read of the recording at `path`; what cannot is in the contents' problem.
    static func load(_ path: String) -> Recording.Contents {
        Recording.load(from: URL(fileURLWithPath: (path as NSString).expandingTildeInPath))
    }
}
