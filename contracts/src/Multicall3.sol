// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/**
 * The read-batching entry points of the well-known Multicall3 deployment (0xcA11bde0…CA11) that x402's
 * batch-settlement facilitator reads channel state through. Public chains have it; a bare anvil does not, so the
 * dev chain installs this one at that address. Only what the x402 packages and viem call: tryAggregate, aggregate3.
 */
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    error CallFailed(uint256 index);

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess && !ok) revert CallFailed(i);
            results[i] = Result(ok, ret);
        }
    }

    function aggregate3(Call3[] calldata calls) public returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!calls[i].allowFailure && !ok) revert CallFailed(i);
            results[i] = Result(ok, ret);
        }
    }
}
